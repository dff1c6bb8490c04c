// Classification of compared changes into signal drafts (docs/engine.md "Classification and signals").
export { classify, slug } from "./classify.ts";
export { certificationsIn, launchSubject, readNews } from "./news.ts";
export type * from "./types.ts";
