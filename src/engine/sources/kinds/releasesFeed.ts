// A project's release feed (a releases Atom feed a source list names): read as a feed, its items new releases.
import { cadenceNow, feedClassifyAs, feedSnapshot } from "./feed.ts";
import { get, type SourceKind } from "./kind.ts";

export const releasesFeed: SourceKind<undefined, "releases_feed"> = {
  name: "releases_feed",
  fetch: get,
  parse: feedSnapshot,
  snapshot: "feed",
  classifyAs: (_, url) => feedClassifyAs(url),
  label: () => "release feed",
  observe: cadenceNow,
};
