// What a cycle checks for one competitor: research's sources, then its monitored pages (a page both name is one
// source).
import { competitorSourceRows } from "../../db/queries/cycles.ts";
import type { Services } from "../../services.ts";
import { pageKey, pageKindOf } from "../sources/discover.ts";
import { sourceKind } from "../sources/kinds/index.ts";
import type { Source } from "./types.ts";

/** The sources of one competitor: research's, then the monitored pages (a page research also found once). */
export async function competitorSources(s: Services, orgId: number, competitorId: number): Promise<Source[]> {
  const { research, monitored } = await competitorSourceRows(s.database, orgId, competitorId);
  const out: Source[] = [];
  const seen = new Map<string, Source>();
  const add = (src: Source) => {
    let k: string;
    try {
      k = sourceKind(src.kind).snapshot === "page" ? pageKey(src.url) : src.url;
    } catch {
      return;
    }
    const had = seen.get(k);
    if (had) {
      if (src.render) had.render = true;
      return;
    }
    seen.set(k, src);
    out.push(src);
  };
  for (const r of research) add({ url: r.url, kind: r.kind, monitored: false });
  for (const { url, render } of monitored)
    add({ url, kind: pageKindOf(url) ?? "monitored", monitored: true, render });
  return out;
}
