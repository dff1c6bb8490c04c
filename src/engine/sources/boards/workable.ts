// Workable: boards at apply.workable.com/{account} (older ones at {account}.workable.com), read through the
// widget API apply.workable.com/api/v1/widget/accounts/{account}: `{ name, jobs: [{ title, shortcode,
// department, url, shortlink, city, state, country, telecommuting, published_on, created_at, locations: [{ city,
// region, country, hidden }] }] }`, the list without descriptions (they come only with `?details=true`).
import { absoluteHttpUrl, isoDate, isRecord, job, str } from "../util.ts";
import type { BoardSpec } from "./types.ts";
import { placeOf, readJson } from "./util.ts";

const NOT_ACCOUNTS = new Set(["api", "j", "embed", "static", "assets", "careers", "jobs", "signin", "login"]);
const NOT_SUBDOMAINS = new Set([
  "www",
  "apply",
  "api",
  "jobs",
  "help",
  "resources",
  "careers",
  "blog",
  "status",
]);

export const workable: BoardSpec = {
  provider: "workable",
  name: "Workable",
  fromUrl(host, parts) {
    if (host === "apply.workable.com") {
      // The API itself: /api/v1/widget/accounts/{account}, /api/v3/accounts/{account}/jobs.
      if (parts[0] === "api") {
        if (parts[1] === "v1" && parts[2] === "widget" && parts[3] === "accounts") return ok(parts[4]);
        if (parts[2] === "accounts") return ok(parts[3]);
        return null;
      }
      if (!parts[0] || NOT_ACCOUNTS.has(parts[0].toLowerCase())) return null;
      return ok(parts[0]);
    }
    const m = /^([a-z0-9][a-z0-9-]*)\.workable\.com$/.exec(host);
    if (m && !NOT_SUBDOMAINS.has(m[1])) return ok(m[1]);
    return null;
  },
  apiUrl: (token) => `https://apply.workable.com/api/v1/widget/accounts/${encodeURIComponent(token)}`,
  parse(text) {
    const data = readJson(text);
    if (!isRecord(data) || !Array.isArray(data.jobs)) return null;
    const jobs = [];
    for (const j of data.jobs) {
      if (!isRecord(j)) continue;
      const title = str(j.title);
      if (!title) continue;
      const first = Array.isArray(j.locations)
        ? j.locations.find((l) => isRecord(l) && !l.hidden)
        : undefined;
      const where = isRecord(first) ? first : j;
      const place = placeOf(str(where.city), str(where.region) ?? str(where.state), str(where.country));
      const location = j.telecommuting === true ? (place ? `Remote (${place})` : "Remote") : place;
      jobs.push(
        job(
          title,
          str(j.department),
          location,
          absoluteHttpUrl(j.url) ?? absoluteHttpUrl(j.shortlink),
          isoDate(j.published_on) ?? isoDate(j.created_at),
        ),
      );
    }
    return { jobs };
  },
};

function ok(token: string | undefined) {
  return token ? { token } : null;
}
