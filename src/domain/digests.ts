// A digest the engine wrote (engine/digests/generate.ts composes it): the event that records it, replacing
// the period's earlier digest under the same id.
import type { EventPayloads, NewEvent } from "../../events/catalog.ts";

export function decideDigestRecorded(orgId: number, d: EventPayloads["DigestRecorded"]): NewEvent {
  return { type: "DigestRecorded", orgId, streamType: "digest", streamId: String(d.id), data: d };
}
