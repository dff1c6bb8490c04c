// Plan prices over time, read from the stored versions of a competitor's pages (the competitor page's chart).
import type { PriceValue } from "../compare/types.ts";
import type { SnapshotStore } from "./store.ts";

export interface PricePoint extends PriceValue {
  /** When this version of the page was first observed. */
  at: string;
}

export interface PlanSeries {
  plan: string;
  /** The page the prices were read from. */
  url: string;
  /** Oldest first: one point per stored version of the page that lists the plan. */
  points: PricePoint[];
  /** The page's last check: the newest point holds until then. */
  checkedAt: string;
}

/** Every plan of every page of a competitor whose latest version lists plans, with its price at each kept
 * version (RIVALS_SNAPSHOTS_KEPT bounds how far back it goes). Sorted by page URL, then plan name. */
export async function planPriceHistory(
  store: SnapshotStore,
  orgId: number,
  competitorId: number,
): Promise<PlanSeries[]> {
  const out: PlanSeries[] = [];
  const sources = (await store.sources(orgId, competitorId)).filter((s) => s.kind === "page" && s.latestHash);
  for (const src of sources) {
    const ref = { orgId, competitorId, url: src.url, kind: src.kind, key: src.key };
    const [latest] = await store.latest(ref, 1);
    if (!latest?.snapshot.plans?.length) continue;
    const versions = (await store.latest(ref)).reverse();
    const series = new Map<string, PlanSeries>();
    for (const v of versions)
      for (const p of v.snapshot.plans ?? []) {
        const k = p.name.toLowerCase();
        let s = series.get(k);
        if (!s) {
          s = { plan: p.name, url: src.url, points: [], checkedAt: src.lastCheckedAt };
          series.set(k, s);
        }
        s.plan = p.name;
        const point: PricePoint = { at: v.observedAt, price: p.price };
        if (p.currency) point.currency = p.currency;
        if (p.period) point.period = p.period;
        if (p.unit) point.unit = p.unit;
        if (p.custom) point.custom = true;
        s.points.push(point);
      }
    out.push(...[...series.values()].sort((a, b) => (a.plan < b.plan ? -1 : a.plan > b.plan ? 1 : 0)));
  }
  return out;
}
