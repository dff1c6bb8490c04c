// SmartRecruiters: boards at jobs.smartrecruiters.com/{company} (or careers.smartrecruiters.com/{company}), and
// the careers widget whose inline configuration names `company_code`; read through the Posting API
// api.smartrecruiters.com/v1/companies/{company}/postings, which pages its list: `{ offset, limit, totalFound,
// content: [{ id, name, company: { identifier }, releasedDate, location: { city, region, country, remote,
// fullLocation }, department: { label }, function: { label } }] }` (no descriptions in the list).
import { absoluteHttpUrl, isoDate, isRecord, job, str } from "../util.ts";
import type { BoardSpec } from "./types.ts";
import { placeOf, readJson } from "./util.ts";

const PAGE = 100;
const NOT_COMPANIES = new Set(["oneclick-ui", "sr-jobs", "api", "static", "ni"]);
const WIDGET_CODE = /["']?company_code["']?\s*[:=]\s*["']([A-Za-z0-9][A-Za-z0-9_.-]{0,99})["']/g;

export const smartrecruiters: BoardSpec = {
  provider: "smartrecruiters",
  name: "SmartRecruiters",
  fromUrl(host, parts) {
    if (host === "jobs.smartrecruiters.com" || host === "careers.smartrecruiters.com") {
      const c = parts[0];
      return c && !NOT_COMPANIES.has(c.toLowerCase()) ? { token: c } : null;
    }
    if (host === "api.smartrecruiters.com" && parts[0] === "v1" && parts[1] === "companies" && parts[2])
      return { token: parts[2] };
    return null;
  },
  fromInlineConfig(html) {
    // The widget's settings only count on a page that loads SmartRecruiters' script.
    if (!/smartrecruiters\.com/i.test(html)) return [];
    return [...html.matchAll(WIDGET_CODE)].map((m) => m[1]!);
  },
  apiUrl: (token) => `https://api.smartrecruiters.com/v1/companies/${encodeURIComponent(token)}/postings`,
  pages: { url: (api, offset) => `${api}?limit=${PAGE}&offset=${offset}`, size: PAGE },
  parse(text, board) {
    const data = readJson(text);
    if (!isRecord(data) || !Array.isArray(data.content)) return null;
    const jobs = [];
    for (const p of data.content) {
      if (!isRecord(p)) continue;
      const title = str(p.name);
      if (!title) continue;
      const loc = isRecord(p.location) ? p.location : {};
      const country = str(loc.country);
      const place =
        str(loc.fullLocation) ??
        placeOf(
          str(loc.city),
          str(loc.region),
          country && country.length === 2 ? country.toUpperCase() : country,
        );
      const location = loc.remote === true ? (place ? `Remote (${place})` : "Remote") : place;
      const company = isRecord(p.company) ? (str(p.company.identifier) ?? board.token) : board.token;
      const id = typeof p.id === "string" || typeof p.id === "number" ? String(p.id) : undefined;
      const department = isRecord(p.department) ? str(p.department.label) : undefined;
      jobs.push(
        job(
          title,
          department ?? (isRecord(p.function) ? str(p.function.label) : undefined),
          location,
          absoluteHttpUrl(p.postingUrl) ??
            (id
              ? `https://jobs.smartrecruiters.com/${encodeURIComponent(company)}/${encodeURIComponent(id)}`
              : undefined),
          isoDate(p.releasedDate),
        ),
      );
    }
    const total = typeof data.totalFound === "number" ? data.totalFound : undefined;
    return total === undefined ? { jobs } : { jobs, total };
  },
};
