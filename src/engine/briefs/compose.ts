// A public brief written from one research run (docs/web.md "Free briefs"): a summary and findings, each a
// sentence over what the site itself states (research's dossier), each citing the numbered public source it was
// read from ("[2]"). Deterministic; a domain research did not fill gives no finding, and nothing is estimated.
import { formatAmount } from "../../domain/money.ts";
import type { ResearchDossier } from "../../domain/researchTypes.ts";
import type {
  PublicBriefFinding,
  PublicBriefRecord,
  PublicBriefSource,
} from "../../domain/workspaceTypes.ts";
import { sourceKind } from "../sources/kinds/index.ts";

type Obj = Record<string, unknown>;

export interface BriefInput {
  /** The company's name as its site gives it (else the domain). */
  name: string;
  domain: string;
  dossier: ResearchDossier;
  now: Date;
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string" && x.trim() !== "") : [];
const day = (d: Date) => d.toISOString().slice(0, 10);

/** "A, B and C" (at most `max` items, then "and N more"). */
export function listOf(items: string[], max = items.length): string {
  const shown = items.slice(0, max);
  const rest = items.length - shown.length;
  if (rest > 0) return `${shown.join(", ")} and ${rest} more`;
  if (shown.length <= 1) return shown.join("");
  return `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]}`;
}

/** One plan as a reader says it: "Team ($59 per seat per month)", "Enterprise (custom pricing)". */
export function planText(p: Obj): string | undefined {
  const name = typeof p.name === "string" ? p.name.trim() : "";
  if (!name) return undefined;
  if (p.custom === true) return `${name} (custom pricing)`;
  if (typeof p.price !== "number") return name;
  if (p.price === 0) return `${name} (free)`;
  const money = formatAmount(p.price, typeof p.currency === "string" ? p.currency : undefined);
  const unit = typeof p.unit === "string" && p.unit ? ` per ${p.unit}` : "";
  const period =
    p.period === "month"
      ? " per month"
      : p.period === "year"
        ? " per year"
        : p.period === "one_time"
          ? " once"
          : "";
  return `${name} (${p.starting === true ? "from " : ""}${money}${unit}${period})`;
}

const PAGE_TITLES: Record<string, string> = {
  home: "home page",
  pricing: "pricing page",
  product: "product page",
  integrations: "integrations page",
  changelog: "changelog",
  careers: "careers page",
  about: "about page",
  security: "security page",
  blog: "blog",
  press: "newsroom",
};

/** Writes the brief; undefined when research found nothing the site states beyond its home page's existence. */
export function composeBrief(x: BriefInput): Omit<PublicBriefRecord, "published_at"> | undefined {
  const { dossier, name } = x;
  const reads = dossier.reads;
  const sources: PublicBriefSource[] = [];
  const norm = (u: string) => u.replace(/\/+$/, "");
  const kinds = new Map(dossier.sources.map((s) => [norm(s.url), s.kind]));
  /** The number of `url` among the sources (added on first use), for a finding's citation. */
  const cite = (url: string | undefined, title?: string): string => {
    if (!url) return "";
    let i = sources.findIndex((s) => norm(s.url) === norm(url));
    if (i < 0) {
      const kind = kinds.get(norm(url)) ?? "";
      const what = title ?? PAGE_TITLES[kind] ?? sourceKind(kind).label(kind);
      sources.push({ title: `${name}: ${what}`, url });
      i = sources.length - 1;
    }
    return ` [${i + 1}]`;
  };
  const findings: PublicBriefFinding[] = [];
  const today = day(x.now);
  const add = (category: string, text: string, url: string | undefined, date = today) => {
    if (!url) return;
    findings.push({ text: `${text}${cite(url)}`, category, date });
  };
  const home = dossier.sources.find((s) => s.kind === "home")?.url;
  const ev = dossier.profile_evidence ?? {};

  if (typeof reads.positioning === "string")
    add("positioning", `Its home page leads with: "${reads.positioning}"`, ev.positioning?.url ?? home);

  const product = isObj(reads.product) ? reads.product : undefined;
  const features = strs(product?.features);
  if (features.length)
    add("product", `Features it names: ${listOf(features, 8)}.`, strs(product?.pages)[0] ?? home);

  const pricing = isObj(reads.pricing) ? reads.pricing : undefined;
  if (pricing) {
    const plans = (Array.isArray(pricing.plans) ? pricing.plans : []).filter(isObj);
    const texts = plans.map(planText).filter((t): t is string => !!t);
    if (texts.length) {
      const extras = [
        pricing.free_tier === true ? "a free tier" : "",
        pricing.has_enterprise === true ? "an enterprise tier" : "",
      ].filter(Boolean);
      add(
        "pricing",
        `Its pricing page lists ${texts.length} plan${texts.length === 1 ? "" : "s"}: ${listOf(texts)}${
          extras.length ? `, with ${listOf(extras)}` : ""
        }.`,
        typeof pricing.page === "string" ? pricing.page : undefined,
      );
    }
  }

  const integ = isObj(reads.integrations) ? reads.integrations : undefined;
  const integNames = strs(integ?.names);
  if (integNames.length)
    add(
      "integrations",
      `It lists ${integNames.length} integration${integNames.length === 1 ? "" : "s"}, among them ${listOf(integNames, 6)}.`,
      typeof integ?.page === "string" ? integ.page : undefined,
    );

  const rel = isObj(reads.release_cadence) ? reads.release_cadence : undefined;
  if (rel && typeof rel.last_release_at === "string" && typeof rel.source === "string") {
    const n = typeof rel.releases_last_90_days === "number" ? rel.releases_last_90_days : 0;
    const median =
      typeof rel.median_days_between === "number" ? `, typically ${rel.median_days_between} days apart` : "";
    add(
      "product",
      `It published ${n} release${n === 1 ? "" : "s"} in the 90 days to ${today}${median}; the latest is dated ${rel.last_release_at.slice(0, 10)}.`,
      rel.source,
      rel.last_release_at.slice(0, 10),
    );
  }

  const hiring = isObj(reads.hiring) ? reads.hiring : undefined;
  if (hiring && typeof hiring.open_roles === "number" && typeof hiring.source === "string") {
    const deps = isObj(hiring.by_department)
      ? Object.entries(hiring.by_department)
          .filter((e): e is [string, number] => typeof e[1] === "number")
          .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
          .map(([d, n]) => `${d} ${n}`)
      : [];
    const locs = strs(hiring.locations);
    add(
      "hiring",
      `${hiring.open_roles} open role${hiring.open_roles === 1 ? "" : "s"} on its job listings${
        deps.length ? ` (${listOf(deps, 6)})` : ""
      }${locs.length ? `; locations: ${locs.slice(0, 5).join("; ")}${locs.length > 5 ? ` and ${locs.length - 5} more` : ""}` : ""}.`,
      hiring.source,
    );
  }
  if (hiring && typeof hiring.estimated_headcount === "number")
    add(
      "company",
      `It states a team of ${hiring.estimated_headcount} people.`,
      typeof hiring.headcount_source === "string" ? hiring.headcount_source : undefined,
    );

  const p = dossier.profile;
  if (p.founding_year && ev.founding_year)
    add("company", `Founded in ${p.founding_year}, as its site states.`, ev.founding_year.url);
  const hq = [p.headquarters?.city, p.headquarters?.country].filter(Boolean).join(", ");
  if (hq && ev.headquarters) add("company", `Headquartered in ${hq}.`, ev.headquarters.url);

  const funding = isObj(reads.funding) ? reads.funding : undefined;
  for (const r of (Array.isArray(funding?.rounds) ? funding.rounds : []).filter(isObj).slice(0, 3))
    if (typeof r.text === "string" && typeof r.source === "string")
      add(
        "funding",
        `On funding it says: "${r.text}"`,
        r.source,
        typeof r.date === "string" && /^\d{4}-\d{2}-\d{2}$/.test(r.date) ? r.date : today,
      );
  if (typeof funding?.ownership_summary === "string" && ev.ownership)
    add("funding", `On ownership it says: "${funding.ownership_summary}"`, ev.ownership.url);

  const reg = isObj(reads.regulation) ? reads.regulation : undefined;
  const certs = strs(reg?.certifications);
  if (certs.length)
    add(
      "regulation",
      `Its security page names ${listOf(certs)}.`,
      typeof reg?.page === "string" ? reg.page : undefined,
    );

  const tech = isObj(reads.tech_stack) ? reads.tech_stack : undefined;
  const techs = (Array.isArray(tech?.technologies) ? tech.technologies : []).filter(isObj);
  const techHome = techs.filter((t) => typeof t.name === "string" && typeof t.page === "string");
  if (techHome.length)
    add(
      "technology",
      `Technologies its pages load or announce: ${listOf(
        techHome.map((t) => String(t.name)),
        10,
      )}.`,
      String(techHome[0].page),
    );

  if (findings.length === 0) return undefined;

  const pagesRead = new Set(dossier.sources.filter((s) => PAGE_TITLES[s.kind]).map((s) => s.url)).size;
  const described = p.description && ev.description ? ` In its own words: "${p.description}"` : "";
  const covered = [...new Set(findings.map((f) => f.category))].join(", ");
  return {
    company_name: name,
    domain: x.domain,
    title: `${name}: what its website says (${today})`,
    summary:
      `What ${name} (${x.domain}) states on its own website, read on ${today} from ${pagesRead} of its pages and the feeds and listings they link: ${covered}.${described}`.slice(
        0,
        4000,
      ),
    findings,
    sources,
  };
}
