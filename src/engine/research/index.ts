// One research run (docs/engine/research.md): fetch the home page through the one fetcher, discover the site's
// pages, fetch and extract them (extraction in the Worker pool), run every source kind's discovery
// (sources/kinds/: feeds, the job board's public JSON, the open sources the site links — GitHub, npm, Wikidata,
// EDGAR, Hacker News, the App Store — and security.txt), then assemble the dossier: profile fields, `urls`,
// `reads` and the sources to watch. A field no source states stays absent. A home page that cannot be read fails the run
// with the reason; nothing partial is returned.
import { FEATURE_LIMIT, type ReadSources } from "../../domain/observation.ts";
import type { ResearchDossier, ResearchProfile, ResearchSource } from "../../domain/researchTypes.ts";
import type { PageExtract } from "../extract/page.ts";
import { positioningOf, profileFrom } from "../extract/profile.ts";
import type { Fetcher, FetchResult } from "../fetch/index.ts";
import { type PageRenderer, visibleHtml } from "../render/index.ts";
import { type DiscoveredPage, discover, type PageKind, sameSite } from "../sources/discover.ts";
import { hiringRead } from "../sources/jobBoards.ts";
import {
  discoverAll,
  discoveredProfile,
  discoveredReads,
  discoveredSources,
  type Found,
} from "../sources/kinds/index.ts";
import {
  allLinks,
  type ReadPage,
  type ResearchIo,
  type SiteRead,
  sameAsOf,
  uniq,
} from "../sources/kinds/kind.ts";
import { changelogEntries, releaseCadence } from "../sources/releases.ts";
import type { ExtractTask, ExtractTaskResult } from "../workers/extract.ts";
import { blockTexts, pageRead, readsTech } from "./pageRead.ts";
import { plansAcross, pricingOf, summaryOf } from "./reads.ts";
import {
  certifications,
  fundingRounds,
  ownershipSentence,
  revenueSentence,
  type StatedText,
} from "./statements.ts";

export interface Extractor {
  run(task: ExtractTask): Promise<ExtractTaskResult>;
}

export interface ResearchOptions {
  fetcher: Fetcher;
  /** Reads application shells as a browser builds them (RIVALS_BROWSER); without one they are listed as
   * failed with needs_browser and read for nothing. */
  renderer?: PageRenderer;
  extractor: Extractor;
  now: () => Date;
  /** Sees every answer as it was fetched (before any rendering): what becomes the monitoring baseline. */
  onFetched?: (r: FetchResult) => void;
  maxPages?: number;
}

export interface ResearchSummary {
  pages_found: number;
  pages_read: number;
  feeds_read: number;
  job_board?: string;
  fetched: number;
  failed: { url: string; error: string }[];
}

export type ResearchResult =
  | {
      ok: true;
      dossier: ResearchDossier;
      summary: ResearchSummary;
      /** The name the site gives itself (og:site_name, its JSON-LD name, else its title's first part). */
      name?: string;
    }
  | { ok: false; code: string; reason: string };

const HTML = /html|xhtml/i;
/** How many further pages of an integrations directory research follows (next pages, category pages). */
export const MAX_DIRECTORY_PAGES = 10;

const SOCIAL: [string, RegExp][] = [
  ["linkedin", /^https?:\/\/([a-z]+\.)?linkedin\.com\/(company|school|showcase)\/[^/?#]+/i],
  ["x", /^https?:\/\/(www\.)?(x|twitter)\.com\/(?!intent|share|home)[A-Za-z0-9_]{1,15}\/?$/i],
  ["youtube", /^https?:\/\/(www\.)?youtube\.com\/(@|c\/|channel\/|user\/)[^/?#]+/i],
  ["facebook", /^https?:\/\/(www\.)?facebook\.com\/(?!sharer|share)[^/?#]+\/?$/i],
  ["instagram", /^https?:\/\/(www\.)?instagram\.com\/[^/?#]+\/?$/i],
  ["tiktok", /^https?:\/\/(www\.)?tiktok\.com\/@[^/?#]+\/?$/i],
  ["github", /^https?:\/\/(www\.)?github\.com\/[A-Za-z0-9-]+\/?$/i],
];

function failure(url: string, r: Extract<FetchResult, { ok: false }>): { code: string; reason: string } {
  const what =
    r.error === "http_error"
      ? `it answered HTTP ${r.status}`
      : r.error === "robots_disallowed"
        ? "its robots.txt disallows our crawler"
        : r.error === "blocked_address"
          ? "its name does not resolve to a public address"
          : r.error === "outside_sites"
            ? "it is not one of the demo's sites"
            : r.error === "timeout"
              ? "it did not answer in time"
              : r.error === "network"
                ? "it could not be reached"
                : r.message;
  return {
    code: r.error === "network" || r.error === "timeout" ? "unreachable" : r.error,
    reason: `Could not read ${url}: ${what} (${r.message}).`,
  };
}

/** Researches one website. Never throws for a site's failures: they come back as `ok: false` with a reason. */
export async function researchSite(website: string, o: ResearchOptions): Promise<ResearchResult> {
  const failed: ResearchSummary["failed"] = [];
  let fetched = 0;
  // Every fetch of the research counted and reported as it completes.
  const counting: Fetcher = {
    fetch: async (req) => {
      fetched++;
      const r = await o.fetcher.fetch(req);
      o.onFetched?.(r);
      return r;
    },
  };
  const get = async (url: string, accept?: string): Promise<FetchResult> => {
    const r = await counting.fetch({ url, ...(accept ? { headers: { accept } } : {}) });
    if (!r.ok) failed.push({ url, error: r.error });
    if (!r.ok || r.notModified || !HTML.test(r.contentType)) return r;
    const v = await visibleHtml(o.renderer, r);
    if (!v.ok) failed.push({ url, error: v.error });
    return v.ok && v.rendered ? { ...r, text: v.html } : r;
  };

  const homeRes = await get(website);
  if (!homeRes.ok) {
    // The fetcher reads robots.txt first and refuses a site whose robots.txt cannot be read: say whether
    // the site itself is down rather than that robots.txt forbids it.
    if (homeRes.error === "robots_disallowed") {
      const probe = await o.fetcher.fetch({ url: new URL("/robots.txt", website).href });
      if (!probe.ok && (probe.error === "network" || probe.error === "timeout" || (probe.status ?? 0) >= 500))
        return { ok: false, ...failure(website, probe) };
    }
    return { ok: false, ...failure(website, homeRes) };
  }
  if (!HTML.test(homeRes.contentType))
    return {
      ok: false,
      code: "unsupported_content",
      reason: `Could not read ${website}: it answered ${homeRes.contentType || "an unknown content type"}, not a web page.`,
    };
  const site = new URL(homeRes.finalUrl);
  const homeX = await o.extractor.run({
    html: homeRes.text,
    url: homeRes.finalUrl,
    headers: homeRes.headers,
    tech: true,
  });
  const home: ReadPage = {
    url: homeRes.url,
    kind: "home",
    extract: homeX.page,
    tech: homeX.tech,
    html: homeRes.text,
  };

  const disc = await discover({ fetcher: o.fetcher, site, home: home.extract, limit: o.maxPages });
  const homeKey = site.href.replace(/\/+$/, "");
  const pages = (
    await Promise.all(
      disc.pages.map(async (p: DiscoveredPage): Promise<ReadPage | undefined> => {
        const r = await get(p.url);
        if (!r.ok || !HTML.test(r.contentType)) return undefined;
        // A standard path that lands on the home page (or off the site) is not a page of that kind.
        if (r.finalUrl.replace(/\/+$/, "") === homeKey || !sameSite(r.finalUrl, site)) return undefined;
        const x = await o.extractor.run({
          html: r.text,
          url: r.finalUrl,
          headers: r.headers,
          tech: readsTech(p.kind),
        });
        return { url: p.url, kind: p.kind, extract: x.page, tech: x.tech, html: r.text };
      }),
    )
  ).filter((p): p is ReadPage => p !== undefined);
  const all = [home, ...pages];
  const ofKind = (k: PageKind) => pages.filter((p) => p.kind === k);
  const first = (k: PageKind) => ofKind(k)[0];
  const directory = await readDirectory();

  /** An integrations directory's further pages (next pages, category pages), up to MAX_DIRECTORY_PAGES. */
  async function readDirectory(): Promise<ReadPage[]> {
    const start = first("integrations");
    if (!start) return [];
    const seen = new Set([start.url, ...pages.map((p) => p.url)]);
    const queue = [...(start.extract.integrationPages ?? [])];
    const out: ReadPage[] = [];
    while (queue.length && out.length < MAX_DIRECTORY_PAGES) {
      const url = queue.shift()!;
      if (seen.has(url) || !sameSite(url, site)) continue;
      seen.add(url);
      const r = await get(url);
      if (!r.ok || !HTML.test(r.contentType)) continue;
      const x = await o.extractor.run({ html: r.text, url: r.finalUrl, headers: r.headers, tech: false });
      out.push({ url, kind: "integrations", extract: x.page, tech: [], html: r.text });
      queue.push(...(x.page.integrationPages ?? []));
    }
    return out;
  }

  // Each source kind's discovery reads what the site names of it: on different hosts, side by side (the fetcher
  // keeps each host to one request at a time).
  const siteRead: SiteRead = { site, home, pages, discovered: disc.pages };
  const io: ResearchIo = {
    fetcher: o.fetcher,
    counting,
    get,
    count: () => {
      fetched++;
    },
    failed: (url, error) => {
      failed.push({ url, error });
    },
  };
  const found = await discoverAll(siteRead, io);

  const now = o.now();
  const dossier = assemble({ ...siteRead, found, now, directory });
  return {
    ok: true,
    dossier: { ...dossier, fetched },
    ...siteName(home.extract),
    summary: {
      pages_found: disc.pages.length + 1,
      pages_read: all.length + directory.length,
      feeds_read: found.feed.length + found.github_releases.length,
      ...(found.job_board && !found.job_board.failed ? { job_board: found.job_board.provider } : {}),
      fetched,
      failed,
    },
  };
}

/** The site's own name: its og:site_name, an Organization's JSON-LD name, else the title before a separator. */
function siteName(p: PageExtract): { name?: string } {
  // One line: the name goes into page titles and email subjects.
  const line = (v: string | undefined) => v?.replace(/\s+/g, " ").trim().slice(0, 200) || undefined;
  const og = line(p.meta["og:site_name"]);
  if (og) return { name: og };
  for (const j of p.jsonLd) {
    const name = typeof j.name === "string" ? line(j.name) : undefined;
    if (name && /Organization|Corporation/.test(String(j["@type"]))) return { name };
  }
  const title = line(p.title?.split(/\s+[|–—·-]\s+/)[0]);
  return title ? { name: title } : {};
}

interface Parts extends SiteRead {
  found: Found;
  now: Date;
  /** Further pages of the integrations directory (read for names, not watched). */
  directory?: ReadPage[];
}

/** The release cadence of each channel research read: the changelog page, the changelog's feed, and each
 * GitHub repository's stable releases and, apart, its pre-releases. */
function releaseChannels(x: Parts, changelog: ReadPage | undefined, now: Date): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const add = (channel: string, dates: string[], source: string, extra: Record<string, unknown> = {}) => {
    const c = dates.length ? releaseCadence(dates, now, source) : null;
    if (c) out.push({ channel, ...c, ...extra });
  };
  if (changelog)
    add(
      "changelog",
      changelogEntries(changelog.extract, changelog.url).map((e) => e.date),
      changelog.url,
    );
  const feed = x.found.feed.find((f) => /change|release|update/i.test(`${f.url} ${f.title ?? ""}`));
  if (feed)
    add(
      "changelog feed",
      feed.items.flatMap((i) => (i.published ? [i.published] : [])),
      feed.url,
    );
  for (const f of x.found.github_releases) {
    const name = f.repo ?? f.url;
    add(
      `${name} releases`,
      f.items.flatMap((i) => (i.published ? [i.published] : [])),
      f.url,
    );
    const pre = (f.releases ?? []).filter((r) => r.prerelease && r.publishedAt).map((r) => r.publishedAt!);
    add(`${name} pre-releases`, pre, f.url, { prerelease: true });
  }
  return out;
}

function compactObj(o: Record<string, unknown>): Record<string, unknown> | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v === undefined || v === null || v === "") continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === "object" && !Array.isArray(v) && Object.keys(v as object).length === 0) continue;
    out[k] = v;
  }
  return Object.keys(out).length ? out : undefined;
}

export function assemble(x: Parts): Omit<ResearchDossier, "fetched"> {
  const { home, pages } = x;
  const byKind = (k: PageKind) => pages.filter((p) => p.kind === k);
  const first = (k: PageKind) => byKind(k)[0];
  const all = [home, ...pages];
  const reads: Record<string, unknown> = {};

  // positioning: the home page's hero.
  const hero = home.extract.hero;
  const positioning = positioningOf(hero);
  if (positioning) reads.positioning = positioning;

  // product
  const productPages = byKind("product");
  const features = uniq([...productPages, home].flatMap((p) => p.extract.features)).slice(0, FEATURE_LIMIT);
  const product = compactObj({
    summary: summaryOf(pageRead(home.extract)),
    features,
    pages: productPages.map((p) => p.url),
  });
  if (product) reads.product = product;
  // What each page names of the reads several pages make: where a cycle that sees one of them change starts.
  const readSources: ReadSources = {};
  for (const p of [...productPages, home]) readSources[p.url] = { features: p.extract.features };

  // pricing: plan cards or a comparison table on the pricing page(s), and the plans product pages and the home
  // page state (a plan on two pages is one plan; one from another page than the read's names its page).
  const pricingPage = byKind("pricing").find((p) => p.extract.plans.length > 0);
  const planPages = [...(pricingPage ? [pricingPage] : []), ...productPages, home].filter(
    (p) => p.extract.plans.length > 0,
  );
  if (planPages.length) reads.pricing = pricingOf(plansAcross(planPages), planPages[0]!.url);

  // tech_stack: detected on the home, pricing, careers and integrations pages.
  const tech = uniq(
    all.flatMap((p) => p.tech.map((t) => ({ ...t, page: p.url }))),
    (t) => t.name,
  );
  if (tech.length) reads.tech_stack = { technologies: tech };
  for (const p of all) if (readsTech(p.kind)) readSources[p.url] = { ...readSources[p.url], tech: p.tech };

  // integrations: the integrations page, else what other pages list.
  const integPage = first("integrations");
  const integNames = uniq(
    integPage
      ? [...integPage.extract.integrations, ...(x.directory ?? []).flatMap((p) => p.extract.integrations)]
      : all.flatMap((p) => p.extract.integrations),
  );
  if (integPage)
    for (const p of [integPage, ...(x.directory ?? [])])
      readSources[p.url] = { ...readSources[p.url], integrations: p.extract.integrations };
  if (integNames.length)
    reads.integrations = compactObj({
      names: integNames,
      count: integNames.length,
      page: integPage?.url ?? all.find((p) => p.extract.integrations.length > 0)?.url,
    });

  // release_cadence: changelog entries, else the changelog's feed, else GitHub releases.
  const changelog = first("changelog");
  let dates: string[] = [];
  let source: string | undefined;
  if (changelog) {
    dates = changelogEntries(changelog.extract, changelog.url).map((e) => e.date);
    source = changelog.url;
  }
  if (dates.length === 0) {
    const feed = x.found.feed.find(
      (f) => /change|release|update/i.test(`${f.url} ${f.title ?? ""}`) && f.items.some((i) => i.published),
    );
    if (feed) {
      dates = feed.items.flatMap((i) => (i.published ? [i.published] : []));
      source = feed.url;
    }
  }
  if (dates.length === 0) {
    const gh = x.found.github_releases.find((f) => f.items.some((i) => i.published));
    if (gh) {
      dates = gh.items.flatMap((i) => (i.published ? [i.published] : []));
      source = gh.url;
    }
  }
  if (dates.length && source) {
    const cadence = releaseCadence(dates, x.now, source);
    const channels = releaseChannels(x, changelog, x.now);
    if (cadence) reads.release_cadence = channels.length > 1 ? { ...cadence, channels } : cadence;
  }

  // what each source kind's discovery gives the dossier (packages, apps).
  Object.assign(reads, discoveredReads(x.found));

  // hiring: the job board's public JSON, else the careers page's list.
  const board = x.found.job_board;
  if (board && !board.failed) reads.hiring = { ...hiringRead(board.jobs, board.provider), source: board.url };
  else {
    const careers = first("careers");
    if (careers?.extract.jobs.length)
      reads.hiring = { ...hiringRead(careers.extract.jobs), source: careers.url };
  }

  // funding: what the about, press and blog pages (and feed items) state.
  const texts: StatedText[] = [...byKind("about"), ...byKind("blog"), ...byKind("press"), home].flatMap((p) =>
    blockTexts(p.extract).map((text) => ({ url: p.url, text })),
  );
  for (const f of x.found.feed)
    for (const i of f.items) if (i.url) texts.push({ url: i.url, text: `${i.title}. ${i.summary ?? ""}` });
  const names = uniq(
    [home.extract.meta["og:site_name"], ...home.extract.jsonLd.map((j) => j.name)].filter(
      (n): n is string => typeof n === "string" && n.trim().length > 1,
    ),
  );
  const rounds = fundingRounds(texts, names);
  const owner = ownershipSentence(texts);
  const revenue = revenueSentence(texts);
  const funding = compactObj({
    rounds,
    ownership_summary: owner?.text,
    estimated_revenue_text: revenue?.text,
    sources: uniq([
      ...rounds.map((r) => r.source),
      ...(owner ? [owner.source] : []),
      ...(revenue ? [revenue.source] : []),
    ]),
  });
  // Beside what a source kind gave (a Wikidata item's chief executive).
  if (funding && (rounds.length || owner || revenue))
    reads.funding = { ...(reads.funding as object | undefined), ...funding };

  // regulation: certifications the security page names, and security.txt.
  const security = first("security");
  const certs = security
    ? certifications(blockTexts(security.extract).map((text) => ({ url: security.url, text })))
    : [];
  const regulation = compactObj({
    certifications: certs.map((c) => c.name),
    page: security && certs.length ? security.url : undefined,
    security_txt: x.found.security_txt
      ? compactObj({
          ...(x.found.security_txt.txt as unknown as Record<string, unknown>),
          signed: x.found.security_txt.txt.signed || undefined,
          source: x.found.security_txt.url,
        })
      : undefined,
  });
  // Beside what a source kind gave (a Wikidata item's SEC CIK).
  if (regulation) reads.regulation = { ...(reads.regulation as object | undefined), ...regulation };

  // profile fields from structured data and meta (profile.ts); urls from discovered pages and social links.
  const profile = profileFrom(all.map((p) => p.extract)) as ResearchProfile & {
    urls?: Record<string, string>;
  };
  const urls: Record<string, string> = {};
  for (const k of ["pricing", "docs", "changelog", "careers"] as const) {
    // A page read, else one the site links (a docs host may refuse crawlers); never a guessed standard path.
    const p = first(k) ?? x.discovered.find((d) => d.kind === k && d.via !== "standard");
    if (p) urls[k] = p.url;
  }
  const social = [
    ...all.flatMap((p) => allLinks(p.extract).map((l) => l.url)),
    ...all.flatMap((p) => p.extract.jsonLd.flatMap((j) => sameAsOf(j))),
  ];
  for (const [key, re] of SOCIAL) {
    if (urls[key]) continue;
    const hit = social.find((u) => typeof u === "string" && re.test(u));
    if (hit) urls[key] = hit;
  }
  const { urls: profileUrls, ...profileFields } = profile;
  for (const [k, v] of Object.entries(profileUrls ?? {})) if (!urls[k]) urls[k] = v;
  const evidence: Record<string, { url: string; excerpt: string }> = {
    ...(profile as { evidence?: Record<string, { url: string; excerpt: string }> }).evidence,
  };
  // the facts the site does not state itself, from the sources a kind reads them in (a Wikidata item)
  discoveredProfile(x.found, profileFields, evidence);
  // hiring.estimated_headcount: the size the site itself states (JSON-LD numberOfEmployees, an about page).
  if (typeof profileFields.company_size === "number")
    reads.hiring = {
      ...((reads.hiring as Record<string, unknown> | undefined) ?? {}),
      estimated_headcount: profileFields.company_size,
      ...(evidence?.company_size ? { headcount_source: evidence.company_size.url } : {}),
    };

  // Every kind's sources, in the registry's order (an address named twice is one source).
  const sources: ResearchSource[] = uniq(discoveredSources(x.found, x), (s) => s.url);
  return {
    profile: profileFields,
    urls,
    reads,
    sources,
    ...(Object.keys(evidence).length ? { profile_evidence: { ...evidence } } : {}),
    read_sources: readSources,
  };
}
