// At the end of a cycle: the first cycle of a UTC day writes the daily digest of the day before, the first
// cycle of an ISO week the weekly TL;DR of the week before (a period that already has its digest is left
// alone; a day without signals writes none). Periods that ended before the workspace existed are skipped.
import { loadOrg } from "../../domain/watchlist.ts";
import type { Services } from "../../services.ts";
import type { AfterCycleStep } from "../cycle/types.ts";
import { generateDigest } from "../digests/generate.ts";
import { DIGEST_TYPES, lastCompletePeriod } from "../digests/period.ts";

export const writeCycleDigests: AfterCycleStep = async (s: Services, cycle) => {
  const org = await loadOrg(s.database.client, cycle.orgId);
  const finished = new Date(cycle.finishedAt);
  let written = 0;
  for (const type of DIGEST_TYPES) {
    const period = lastCompletePeriod(type, finished);
    if (period.end.getTime() <= Date.parse(org.created_at)) continue;
    const out = await generateDigest(s, cycle.orgId, type, { end: period.end, onlyIfAbsent: true });
    if (out.written) written++;
  }
  return { digests_written: written };
};
