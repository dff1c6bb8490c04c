// Recruitee: career sites at {company}.recruitee.com, read through their public offers API
// {company}.recruitee.com/api/offers/: `{ offers: [{ id, slug, title, status, department, location, city,
// country, remote, careers_url, published_at, created_at, locations: [{ city, country }] }] }`.
import { absoluteHttpUrl, isoDate, isRecord, job, str } from "../util.ts";
import type { BoardSpec } from "./types.ts";
import { placeOf, readJson } from "./util.ts";

const NOT_COMPANIES = new Set(["www", "api", "app", "careers", "blog", "help", "support", "status", "docs"]);

export const recruitee: BoardSpec = {
  provider: "recruitee",
  name: "Recruitee",
  fromUrl(host) {
    const m = /^([a-z0-9][a-z0-9-]*)\.recruitee\.com$/.exec(host);
    return m && !NOT_COMPANIES.has(m[1]!) ? { token: m[1]! } : null;
  },
  apiUrl: (token) => `https://${token.toLowerCase()}.recruitee.com/api/offers/`,
  parse(text) {
    const data = readJson(text);
    if (!isRecord(data) || !Array.isArray(data.offers)) return null;
    const jobs = [];
    for (const o of data.offers) {
      if (!isRecord(o)) continue;
      if (typeof o.status === "string" && o.status !== "published") continue;
      const title = str(o.title);
      if (!title) continue;
      const first = Array.isArray(o.locations) ? o.locations.find(isRecord) : undefined;
      const place =
        str(o.location) ??
        placeOf(str(o.city), str(o.state_name), str(o.country)) ??
        (first ? placeOf(str(first.city), str(first.state), str(first.country)) : undefined);
      const location = o.remote === true ? (place ? `Remote (${place})` : "Remote") : place;
      jobs.push(
        job(
          title,
          str(o.department),
          location,
          absoluteHttpUrl(o.careers_url),
          recruiteeDate(o.published_at) ?? recruiteeDate(o.created_at),
        ),
      );
    }
    return { jobs };
  },
};

/** Recruitee writes "2026-11-02 09:15:00 UTC". */
function recruiteeDate(v: unknown): string | undefined {
  if (typeof v !== "string") return undefined;
  return isoDate(v.trim().replace(/^(\d{4}-\d\d-\d\d) (\d\d:\d\d(?::\d\d)?) UTC$/, "$1T$2Z"));
}
