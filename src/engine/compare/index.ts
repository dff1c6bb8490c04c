// Normalise extracts into snapshots and compare snapshots into changes (docs/engine.md, "Snapshots and comparison").
export { compare, formatPrice } from "./compare.ts";
export { clean, MASK, maskText, maskUrl } from "./mask.ts";
export {
  normalise,
  normaliseFeed,
  normaliseJobs,
  normaliseStructured,
  serialise,
  snapshotHash,
} from "./normalise.ts";
export { Seen, seenKey, seenOf } from "./seen.ts";
export type * from "./types.ts";
