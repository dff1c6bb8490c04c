import type { Services } from "../services.ts";
import { requireOrg } from "./state.ts";

/** Writes the event log (or one org's part of it) as NDJSON, in log order, in pages. */
export async function exportNdjson(s: Services, orgSlug: string | undefined, write: (line: string) => void) {
  const orgId = orgSlug ? (await requireOrg(s.database, orgSlug)).id : undefined;
  let after = 0;
  for (;;) {
    const page = await s.store.read({ after, orgId, limit: 1000 });
    if (page.length === 0) break;
    for (const e of page) {
      write(
        `${JSON.stringify({
          position: e.position,
          type: e.type,
          org_id: e.orgId,
          stream_type: e.streamType,
          stream_id: e.streamId,
          stream_version: e.streamVersion,
          data: e.data,
          metadata: e.metadata,
          recorded_at: e.recordedAt,
        })}\n`,
      );
      after = e.position;
    }
  }
}
