// What a monitoring cycle saw on a competitor's changed sources, applied to its dossier in the command that
// records the cycle's signals: the pricing page's plans (prices, periods, plan features, the page's order), the
// home page's positioning and summary, product features, integrations, open roles, the security page's
// certifications and the release cadence — read from each source as research reads it — so research and cycles
// keep one state. Pure: the engine reads the pages, this decides.
import type { NewEvent } from "../../events/catalog.ts";
import {
  addClaim,
  type RoundConflict,
  type RoundStatement,
  roundConflict,
  statementOf,
} from "./conflicts.ts";
import { overlapChange } from "./icpOverlap.ts";
import { pagePlans, pricingRead, statesPlans } from "./pricingRead.ts";
import type { CompetitorRecord } from "./records.ts";
import type { IcpProfile } from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;

/** One changed source as research would read it now (engine/research/reads.ts). A field the page no longer
 * states is absent. */
export interface SourceObservation {
  url: string;
  /** Research's kind of the source: home, pricing, product, integrations, careers …, or job_board:<provider>. */
  kind: string;
  /** A page listing plans: the pricing read of it. */
  pricing?: Obj;
  /** The home page: its positioning line and summary. */
  positioning?: string;
  summary?: string;
  /** Product features the page names (product pages and the home page). */
  features?: string[];
  /** Integrations the page names (the integrations page and its directory pages). */
  integrations?: string[];
  /** A job board, or a careers page that lists its jobs: the hiring read. */
  hiring?: Obj;
  /** The security page: the certifications it names now. */
  certifications?: string[];
  /** A changelog page or feed, or a release feed: the release cadence its dates give. */
  release_cadence?: Obj;
  /** The technologies the page shows (home, pricing, careers and integrations pages). */
  tech?: Obj[];
  /** A Wikidata item: its chief executive now, with the item as source (`reads.funding.chief_executive`), and
   * the SEC CIK it states (`reads.regulation.sec`); null when the item names none. */
  chief_executive?: Obj | null;
  sec?: Obj | null;
  /** A package or an app: its entry as read now, which replaces the entry of the same source in
   * `reads.packages.packages` / `reads.apps.apps`. */
  package?: Obj;
  app?: Obj;
  /** The company facts the page states on its own (profile fields), where each was read, and the page's address
   * as read (after redirects: what research's evidence names). */
  profile?: { url: string; fields: Obj; evidence: Record<string, Evidence> };
}

/** Where a company fact was read: the page and an excerpt. */
export interface Evidence {
  url: string;
  excerpt: string;
}

/** The company facts a page can state (the record's profile fields). */
export const PROFILE_FIELDS = [
  "description",
  "category",
  "industry",
  "business_model",
  "company_type",
  "company_size",
  "founding_year",
  "headquarters",
  "target_customer",
  "ownership",
] as const;

/** What each page contributed to the reads several pages make (kept internal, per source URL). */
export type ReadSources = Record<string, { features?: string[]; integrations?: string[]; tech?: Obj[] }>;

/** How many product features the dossier keeps (as research does). */
export const FEATURE_LIMIT = 60;

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

function uniq(xs: string[]): string[] {
  const seen = new Set<string>();
  return xs.filter((x) => {
    const k = x.toLowerCase();
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** A funding round a source announces (a funding signal's evidence, read sentence by sentence as research
 * reads the about, press and blog pages). */
export interface StatedRound extends RoundStatement {
  round: string;
  date?: string;
  text: string;
  source: string;
}

export interface ObserveCommand {
  orgId: number;
  competitorId: number;
  /** The changed sources of this cycle, read now. */
  observed: SourceObservation[];
  /** The funding rounds this cycle's funding signals announce. */
  funding?: StatedRound[];
  /** The cycle opened or updated signals of the competitor. */
  signalsSeen: boolean;
  now: string;
  /** The workspace's ideal customer profile, when one is set: the overlap is read again from the new state. */
  icp?: IcpProfile;
}

/** The reads one pass of observations makes, and what each page contributed. */
function applyObservations(
  record: CompetitorRecord,
  observed: SourceObservation[],
  funding: StatedRound[] = [],
): { reads: Obj; sources: ReadSources } {
  const reads: Obj = { ...(record.reads ?? {}) };
  const had = (isObj(record.internal?.read_sources) ? record.internal.read_sources : {}) as ReadSources;
  const sources: ReadSources = { ...had };

  const pricing = isObj(reads.pricing) ? reads.pricing : undefined;
  const pricingPage = (typeof pricing?.page === "string" ? pricing.page : undefined) ?? record.urls?.pricing;
  const hiring = isObj(reads.hiring) ? reads.hiring : undefined;

  for (const o of observed) {
    // Pricing: the page the read came from; another pricing page only while no page has given plans.
    // Plans read from another page (a product page, the home page) stay, and follow that page.
    if (o.url === pricingPage || (!pricing && o.kind === "pricing" && o.pricing)) {
      if (o.pricing)
        reads.pricing = pricingRead(
          { ...o.pricing, page: o.url, plans: pagePlans(reads.pricing, o.url, o.pricing) },
          reads.pricing,
        );
      else if (o.url === pricing?.page) delete reads.pricing;
    } else if (isObj(reads.pricing) && statesPlans(reads.pricing, o.url)) {
      reads.pricing = pricingRead(
        { ...reads.pricing, plans: pagePlans(reads.pricing, o.url, o.pricing) },
        reads.pricing,
      );
    }
    if (o.kind === "home") {
      if (o.positioning) reads.positioning = o.positioning;
      else delete reads.positioning;
      const product: Obj = { ...(isObj(reads.product) ? reads.product : {}) };
      if (o.summary) product.summary = o.summary;
      else delete product.summary;
      reads.product = product;
    }
    if (o.kind === "home" || o.kind === "product")
      sources[o.url] = { ...sources[o.url], features: o.features ?? [] };
    if (o.kind === "integrations") sources[o.url] = { ...sources[o.url], integrations: o.integrations ?? [] };
    if (o.tech) sources[o.url] = { ...sources[o.url], tech: o.tech };
    // Certifications: the security page's (security.txt stays as research read it).
    if (o.certifications) {
      const reg: Obj = { ...(isObj(reads.regulation) ? reads.regulation : {}) };
      if (!reg.page || reg.page === o.url) {
        if (o.certifications.length) Object.assign(reg, { certifications: o.certifications, page: o.url });
        else {
          delete reg.certifications;
          delete reg.page;
        }
        if (Object.keys(reg).length) reads.regulation = reg;
        else delete reads.regulation;
      }
    }
    // The release cadence: from the source research read it from (a first one from a changelog or releases).
    const cadence = isObj(reads.release_cadence) ? reads.release_cadence : undefined;
    const first =
      !cadence && (o.kind === "changelog" || o.kind === "releases_feed" || o.kind === "github_releases");
    // Each channel (a changelog, a repository's stable releases) follows its own source; pre-releases are
    // research's (a cycle's snapshot holds stable releases only).
    const channels = Array.isArray(cadence?.channels)
      ? cadence.channels.map((ch) =>
          o.release_cadence && isObj(ch) && ch.source === o.url && ch.prerelease !== true
            ? { ...ch, ...o.release_cadence }
            : ch,
        )
      : undefined;
    if (o.release_cadence && (first || cadence?.source === o.url))
      reads.release_cadence = { ...o.release_cadence, ...(channels ? { channels } : {}) };
    else if (channels && cadence) reads.release_cadence = { ...cadence, channels };
    if (o.chief_executive !== undefined)
      reads.funding = withKey(reads.funding, "chief_executive", o.chief_executive);
    if (o.sec !== undefined) reads.regulation = withKey(reads.regulation, "sec", o.sec);
    if (o.package) reads.packages = withEntry(reads.packages, "packages", o.url, o.package);
    if (o.app) reads.apps = withEntry(reads.apps, "apps", o.url, o.app);
    const boardNow = o.kind.startsWith("job_board:");
    const careersList = o.kind === "careers" && (!hiring?.source || hiring.source === o.url);
    if (o.hiring && (boardNow || careersList)) {
      const kept: Obj = {};
      for (const k of ["estimated_headcount", "headcount_source"])
        if (hiring?.[k] !== undefined) kept[k] = hiring[k];
      reads.hiring = { ...o.hiring, source: o.url, ...kept };
    }
  }

  // Reads several pages make: what each page names, in research's order (the order `sources` holds them); a
  // dossier researched before pages were kept apart keeps what it had and gains what a page names now.
  const collect = (field: "features" | "integrations", kinds: (k: string) => boolean) => {
    const pages = Object.entries(sources).filter(([, v]) => v[field] !== undefined);
    const known = Object.values(had).some((v) => v[field] !== undefined);
    return { pages, known, touched: observed.some((o) => kinds(o.kind)) };
  };
  const f = collect("features", (k) => k === "home" || k === "product");
  if (f.touched) {
    const product: Obj = { ...(isObj(reads.product) ? reads.product : {}) };
    const names = f.pages.flatMap(([, v]) => v.features ?? []);
    const features = uniq(f.known ? names : [...names, ...strs(product.features)]).slice(0, FEATURE_LIMIT);
    if (features.length) product.features = features;
    else delete product.features;
    reads.product = product;
  }
  if (isObj(reads.product) && Object.keys(reads.product).length === 0) delete reads.product;
  // Technologies: each page's, first page first; the same set in another order is no change.
  if (observed.some((o) => o.tech)) {
    const knownTech = Object.values(had).some((v) => v.tech !== undefined);
    const stack: Obj = { ...(isObj(reads.tech_stack) ? reads.tech_stack : {}) };
    const old = (Array.isArray(stack.technologies) ? stack.technologies : []).filter(isObj);
    const seen = new Set<string>();
    const now: Obj[] = [];
    const pages: Obj[] = Object.entries(sources).flatMap(([url, v]) =>
      (v.tech ?? []).map((t): Obj => ({ ...t, page: url })),
    );
    for (const t of knownTech ? pages : [...pages, ...old]) {
      const name = String(t.name ?? "").toLowerCase();
      if (!name || seen.has(name)) continue;
      seen.add(name);
      now.push(t);
    }
    const names = (ts: Obj[]) => JSON.stringify(ts.map((t) => `${t.name}|${t.page}`).sort());
    if (names(now) !== names(old)) {
      if (now.length) reads.tech_stack = { ...stack, technologies: now };
      else delete reads.tech_stack;
    }
  }
  const i = collect("integrations", (k) => k === "integrations");
  if (i.touched) {
    const integ: Obj = { ...(isObj(reads.integrations) ? reads.integrations : {}) };
    const names = i.pages.flatMap(([, v]) => v.integrations ?? []);
    const all = uniq(i.known ? names : [...names, ...strs(integ.names)]);
    if (all.length) reads.integrations = { ...integ, names: all, count: all.length };
    else delete reads.integrations;
  }
  if (funding.length) reads.funding = withRounds(isObj(reads.funding) ? reads.funding : undefined, funding);
  return { reads, sources };
}

/** A read with one key set (null: removed); no read when nothing is left. */
function withKey(read: unknown, key: string, value: Obj | null): Obj | undefined {
  const r: Obj = { ...(isObj(read) ? read : {}) };
  if (value) r[key] = value;
  else delete r[key];
  return Object.keys(r).length ? r : undefined;
}

/** A read listing entries (packages, apps), the entry read from `source` taking what it says now. An entry
 * research did not list stays unlisted (research decides which are the competitor's). */
function withEntry(read: unknown, list: string, source: string, now: Obj): unknown {
  if (!isObj(read) || !Array.isArray(read[list])) return read;
  return {
    ...read,
    [list]: read[list].map((e) => (isObj(e) && e.source === source ? { ...e, ...now } : e)),
  };
}

/** The funding read with the rounds a cycle saw announced: a round not known yet is added (in the order
 * announced), a round known without a size takes the one stated, and a round stated with another size stays
 * as read and is recorded as a conflict (`conflicts`: the sources disagree), never as a second round. */
function withRounds(funding: Obj | undefined, stated: StatedRound[]): Obj {
  const f: Obj = { ...(funding ?? {}) };
  const rounds = (Array.isArray(f.rounds) ? f.rounds : []).filter(isObj).map((r) => ({ ...r }));
  const conflicts = new Map(
    (Array.isArray(f.conflicts) ? f.conflicts : [])
      .filter(isObj)
      .map((c) => [String(c.round), c as unknown as RoundConflict]),
  );
  for (const s of stated) {
    const known = rounds.find((r) => r.round === s.round);
    if (!known) {
      rounds.push({ ...s });
      continue;
    }
    if (s.amount === undefined) continue;
    if (known.amount === undefined) {
      for (const k of ["amount_text", "amount", "currency"] as const) if (s[k] !== undefined) known[k] = s[k];
      continue;
    }
    const had = conflicts.get(s.round)?.claims ?? [statementOf(known as RoundStatement)];
    const c = roundConflict(s.round, addClaim(had, statementOf(s)));
    if (c) conflicts.set(s.round, c);
  }
  f.rounds = rounds;
  if (conflicts.size) f.conflicts = [...conflicts.values()];
  f.sources = uniq([...strs(f.sources), ...stated.map((s) => s.source)]);
  return f;
}

/** The company facts research read from a changed page, as the page states them now: each fact whose evidence
 * is that page takes its new value, or goes when the page no longer states it (facts read elsewhere, imported
 * or not yet stated stay: research adds those). */
function observedFacts(
  record: CompetitorRecord,
  observed: SourceObservation[],
): { set: Obj; removed: string[]; evidence?: Record<string, Evidence> } {
  const had = (isObj(record.internal?.profile_evidence) ? record.internal.profile_evidence : {}) as Record<
    string,
    Evidence
  >;
  const evidence = { ...had };
  const set: Obj = {};
  const removed: string[] = [];
  const rec = record as unknown as Obj;
  for (const o of observed) {
    if (!o.profile) continue;
    for (const f of PROFILE_FIELDS) {
      if (had[f]?.url !== o.profile.url) continue;
      const now = o.profile.fields[f];
      if (now !== undefined && o.profile.evidence[f]) {
        evidence[f] = o.profile.evidence[f]!;
        if (!same(rec[f], now)) set[f] = now;
      } else {
        delete evidence[f];
        delete set[f];
        if (rec[f] !== undefined) removed.push(f);
      }
    }
  }
  return { set, removed, ...(same(had, evidence) ? {} : { evidence }) };
}

/** CompetitorObserved when the changed sources change the dossier's reads or company facts, or the cycle saw
 * signals of the competitor (its `freshness.last_signal_at`); nothing otherwise. */
export function decideObservation(record: CompetitorRecord, cmd: ObserveCommand): NewEvent[] {
  const { reads, sources } = applyObservations(record, cmd.observed, cmd.funding);
  const facts = observedFacts(record, cmd.observed);
  // The headcount the site states is the hiring read's too (as research records it).
  const size = facts.set.company_size ?? (facts.removed.includes("company_size") ? null : undefined);
  if (size !== undefined && isObj(reads.hiring)) {
    const hiring: Obj = { ...reads.hiring };
    if (typeof size === "number") hiring.estimated_headcount = size;
    else {
      delete hiring.estimated_headcount;
      delete hiring.headcount_source;
    }
    reads.hiring = hiring;
  }
  const before = record.reads ?? {};
  const changed: Obj = {};
  const removed: string[] = [];
  for (const k of new Set([...Object.keys(before), ...Object.keys(reads)])) {
    if (same(before[k], reads[k])) continue;
    if (reads[k] === undefined) removed.push(k);
    else changed[k] = reads[k];
  }
  const hadSources = isObj(record.internal?.read_sources) ? record.internal.read_sources : {};
  const sourcesChanged = !same(hadSources, sources);
  const factsChanged = Object.keys(facts.set).length > 0 || facts.removed.length > 0;
  const readsChanged = Object.keys(changed).length > 0 || removed.length > 0 || factsChanged;
  // History read from the web archive records its signals at their past times: never back in time.
  const lastSignal = record.freshness?.last_signal_at;
  const signalNow = cmd.signalsSeen && (!lastSignal || Date.parse(lastSignal) < Date.parse(cmd.now));
  if (!readsChanged && !sourcesChanged && !signalNow && !facts.evidence) return [];
  const observedEvent: NewEvent = {
    type: "CompetitorObserved",
    orgId: cmd.orgId,
    streamType: "competitor",
    streamId: String(cmd.competitorId),
    data: {
      competitor_id: cmd.competitorId,
      observed_at: cmd.now,
      ...(Object.keys(changed).length ? { reads: changed } : {}),
      ...(removed.length ? { removed } : {}),
      ...(sourcesChanged ? { read_sources: sources } : {}),
      ...(Object.keys(facts.set).length ? { profile: facts.set } : {}),
      ...(facts.removed.length ? { profile_removed: facts.removed } : {}),
      ...(facts.evidence ? { profile_evidence: facts.evidence } : {}),
      ...(signalNow ? { last_signal_at: cmd.now } : {}),
    },
  };
  return [observedEvent, ...overlapAfter(record, cmd, reads, facts)];
}

/** The competitor's overlap with the workspace's ICP read again from the state the observations leave (as
 * research and update_icp read it), when an ICP is set and the overlap changes. */
function overlapAfter(
  record: CompetitorRecord,
  cmd: ObserveCommand,
  reads: Obj,
  facts: { set: Obj; removed: string[] },
): NewEvent[] {
  if (!cmd.icp) return [];
  const after = { ...record, ...facts.set, reads } as CompetitorRecord & Obj;
  for (const k of facts.removed) delete after[k];
  return overlapChange(cmd.orgId, cmd.competitorId, cmd.icp, after, record.workspace?.icp_overlap);
}
