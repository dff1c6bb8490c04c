// Extraction step: a careers page's open roles — job cards, tables with a title column, lists of job links under
// an "open roles" heading, else loose rows that each link a role — with department, location and link.

import type { CardInfo, Walk } from "./blocks.ts";
import {
  absoluteUrl,
  ancestorOrSelf,
  attr,
  clean,
  descendants,
  type El,
  findFirst,
  HEADING,
  isTag,
  leafLines,
  textOf,
} from "./dom.ts";
import { similarGroups } from "./groups.ts";
import type { Job } from "./types.ts";

const ROLE_RE =
  /\b(engineer|engineering manager|developer|designer|manager|scientist|analyst|architect|executive|director|lead|head of|specialist|representative|rep|advocate|marketer|recruiter|consultant|intern|internship|officer|coordinator|writer|administrator|associate|counsel|accountant|controller|vp|vice president|chief|strategist|researcher|technician|operator|agent|owner|editor|sre|devops|programmer|tester|qa|partner|producer|assistant|generalist|principal|staff|senior|junior)\b/i;
const LOCATION_WORDS =
  /\b(remote|hybrid|on-?site|onsite|in-office|anywhere|worldwide|global|emea|apac|americas|europe|north america|latam|usa?|uk|united states|united kingdom|canada|germany|france|spain|portugal|netherlands|ireland|india|australia|singapore|japan|brazil|mexico|poland|sweden|denmark|norway|finland|switzerland|austria|italy|israel|london|new york|san francisco|berlin|paris|amsterdam|dublin|toronto|austin|boston|seattle|chicago|lisbon|madrid|barcelona|munich|zurich|stockholm|copenhagen|tel aviv|bangalore|sydney|tokyo|singapore)\b/i;
const LOCATION_SHAPE = /,\s*[A-Z]{2}\b|,\s*[A-Z][a-z]+/;
const LOCATION_RE = { test: (s: string) => LOCATION_WORDS.test(s) || LOCATION_SHAPE.test(s) };

const META_SEPARATOR = /\s+[·•|—–]\s+|\s*[·•|]\s*/;

function splitMeta(lines: string[]): string[] {
  return lines
    .flatMap((l) => l.split(META_SEPARATOR))
    .map(clean)
    .filter((x) => x);
}

function jobFromCard(info: CardInfo, base: string): Job | null {
  const title = info.block.title;
  return jobFromParts(
    info.el,
    title,
    partsOf(info.el).filter((t) => t !== title),
    base,
  );
}

/** The texts of an element's leaf pieces (each text node and each element without element children). */
function partsOf(el: El): string[] {
  const out: string[] = [];
  const walk = (e: El, depth: number) => {
    for (let n = e.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === 3) {
        const t = clean(n.nodeValue);
        if (t) out.push(t);
      } else if (n.nodeType === 1) {
        const c = n as El;
        if (!c.firstElementChild || depth > 50 || HEADING.has(c.tagName)) {
          const t = textOf(c);
          if (t) out.push(t);
        } else walk(c, depth + 1);
      }
    }
  };
  walk(el, 0);
  return out;
}

const DEPARTMENT_CLASS = /(dept|department|team|category|function)/i;
const LOCATION_CLASS = /(loc|location|office|city|place|region|where)/i;
const CALL_TO_ACTION = /^(apply|view|learn|see|read)\b/i;
const WHITESPACE = /\s+/;
const DIGIT = /\d/;

function jobFromParts(el: El, title: string, items: string[], base: string): Job | null {
  if (title.length > 120 || !ROLE_RE.test(title)) return null;
  const job: Job = { title };
  for (const c of descendants(el)) {
    const cls = attr(c, "class");
    if (!cls) continue;
    const t = textOf(c);
    if (!t || t === title || t.length > 80) continue;
    if (!job.department && DEPARTMENT_CLASS.test(cls)) job.department = t;
    else if (!job.location && LOCATION_CLASS.test(cls)) job.location = t;
  }
  for (const part of splitMeta(items)) {
    if (part.length > 80 || part === job.department || part === job.location) continue;
    if (CALL_TO_ACTION.test(part)) continue;
    if (!job.location && LOCATION_RE.test(part)) job.location = part;
    else if (
      !job.department &&
      part.split(WHITESPACE).length <= 4 &&
      !DIGIT.test(part) &&
      !LOCATION_RE.test(part)
    )
      job.department = part;
  }
  const a =
    el.tagName === "A"
      ? el
      : (findFirst(el, (e) => e.tagName === "A" && e.hasAttribute("href")) ??
        ancestorOrSelf(el, (e) => e.tagName === "A" && e.hasAttribute("href")));
  const url = absoluteUrl(attr(a, "href"), base);
  if (url) job.url = url;
  return job;
}

const TITLE_COLUMN = /\b(title|role|position|job|opening)\b/;
const DEPARTMENT_COLUMN = /\b(department|team|function|category)\b/;
const LOCATION_COLUMN = /\b(location|office|city|where)\b/;

function jobsFromTable(rows: string[][]): Job[] {
  const header = rows[0]!.map((h) => h.toLowerCase());
  const ti = header.findIndex((h) => TITLE_COLUMN.test(h));
  if (ti < 0) return [];
  const di = header.findIndex((h) => DEPARTMENT_COLUMN.test(h));
  const li = header.findIndex((h) => LOCATION_COLUMN.test(h));
  const out: Job[] = [];
  for (const r of rows.slice(1)) {
    const title = clean(r[ti]);
    if (!title) continue;
    const job: Job = { title };
    if (di >= 0 && clean(r[di])) job.department = clean(r[di]);
    if (li >= 0 && clean(r[li])) job.location = clean(r[li]);
    out.push(job);
  }
  return out;
}

/** Job rows without headings or title classes: similar siblings that each hold a link naming a role. */
function looseJobs(content: El, base: string): Job[] {
  for (const kids of similarGroups(content, 2)) {
    const jobs: Job[] = [];
    for (const k of kids) {
      const a = k.tagName === "A" ? k : findFirst(k, (e) => e.tagName === "A" && e.hasAttribute("href"));
      const lines = a ? leafLines(a) : [];
      const title = lines[0] ?? (a ? textOf(a) : "");
      if (!a || !title || title.length > 120 || !ROLE_RE.test(title)) continue;
      const items = partsOf(k).filter((l) => l !== title);
      const job = jobFromParts(k, title, items, base);
      if (job) jobs.push(job);
    }
    if (jobs.length >= 2 && jobs.length >= kids.length / 2) return jobs;
  }
  return [];
}

const OPEN_ROLES_HEADING = /\b(open|current)?\s*(roles|positions|openings|jobs|vacancies|opportunities)\b/i;

/** The open roles a careers page lists (`base`: the URL its links resolve against). */
export function readJobs(w: Walk, groups: Map<El | null, CardInfo[]>, content: El, base: string): Job[] {
  const jobs: Job[] = [];
  for (const g of groups.values()) {
    for (const c of g) {
      const j = jobFromCard(c, base);
      if (j && !jobs.some((x) => x.title === j.title && x.location === j.location)) jobs.push(j);
    }
  }
  for (const t of w.tables) if (t.rows.length >= 2) jobs.push(...jobsFromTable(t.rows));
  // plain lists of job links under an "open roles" heading
  for (const l of w.lists) {
    if (!OPEN_ROLES_HEADING.test(l.section ?? "")) continue;
    for (const li of descendants(l.el).filter(isTag("li"))) {
      const a = findFirst(li, (e) => e.tagName === "A" && e.hasAttribute("href"));
      const t = textOf(a ?? li);
      if (!t || t.length > 120 || !ROLE_RE.test(t) || jobs.some((j) => j.title === t)) continue;
      const u = absoluteUrl(attr(a, "href"), base);
      jobs.push(u ? { title: t, url: u } : { title: t });
    }
  }
  if (!jobs.length) jobs.push(...looseJobs(content, base));
  return jobs;
}
