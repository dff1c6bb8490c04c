// draft_positioning: reads the workspace's own website (home page, then its product, about, customers and
// pricing pages) and drafts the empty positioning fields from what the pages say — value propositions from
// the hero and the benefit headings, differentiators from sentences that set the product apart, exclusions
// from sentences that say who or what it is not for. Deterministic; every entry is the site's own words.
import { type Issuer, runCommand } from "../../../events/command.ts";
import { DomainError } from "../../domain/errors.ts";
import {
  checkDraftPositioning,
  POSITIONING_FIELDS,
  type PositioningField,
  recordPositioningDraft,
} from "../../domain/research.ts";
import { loadSettings } from "../../domain/workspace.ts";
import type { Services } from "../../services.ts";
import type { PageExtract } from "../extract/page.ts";
import { workspaceFetcher } from "../fetch/index.ts";
import { linkCandidates, selectPages } from "../sources/discover.ts";
import { extractPool } from "../workers/extract.ts";
import { sentences } from "./statements.ts";

const MAX_ITEMS = 5;
const MAX_LEN = 200;
const GENERIC_HEADING =
  /^(pricing|plans|customers|faq|frequently asked questions|features|integrations|resources|company|product|blog|news|contact( us)?|get started|sign up|log ?in|testimonials|trusted by.*|our customers|what our customers say|footer|menu|navigation)$/i;
const DIFFERENT =
  /\b(unlike|the only|only [a-z- ]+ (that|to|with)|first [a-z- ]+ to|instead of|no (sql|code|engineers?)|without (writing|needing|any|sql|code)|built for|purpose-built|fastest|#1)\b/i;
const EXCLUDES =
  /\b(not for|isn'?t for|is not for|not a fit|not designed for|not built for|we don'?t|we do not|doesn'?t (offer|support|do)|does not (offer|support|do)|no support for|not (a|an) [a-z]+ (tool|platform|product))\b/i;

function clean(s: string): string | undefined {
  const t = s.replace(/\s+/g, " ").trim();
  return t && t.length <= MAX_LEN ? t : undefined;
}

function uniqPush(out: string[], v: string | undefined) {
  if (v && out.length < MAX_ITEMS && !out.some((x) => x.toLowerCase() === v.toLowerCase())) out.push(v);
}

/** Headings that introduce a section, ask, or call to action rather than state a benefit. */
const NOT_A_BENEFIT =
  /^(start|get|try|sign|book|request|contact|ready|why|how|what|who|join|talk|see all|learn|read|meet|loved|trusted|our customers|frequently)\b|\?$/i;
/** A section whose items say why buyers pick the product: its items are differentiators. */
const WHY_SECTION = /\b(why|different|unlike|sets? (us|it) apart|compare|vs\.?|versus)\b/i;

/** Each block's text on its own, with the section heading it sits under. */
function blockItems(p: PageExtract): { text: string; section?: string }[] {
  const out: { text: string; section?: string }[] = [];
  for (const b of p.blocks) {
    if (b.kind === "text") out.push({ text: b.text, section: b.section });
    else if (b.kind === "list") for (const i of b.items) out.push({ text: i, section: b.section });
    else if (b.kind === "card") out.push({ text: b.title, section: b.section });
  }
  return out;
}

/** The draft from the home page and the other pages read (pure). */
export function draftFrom(home: PageExtract, others: PageExtract[]): Record<PositioningField, string[]> {
  const value: string[] = [];
  uniqPush(value, home.hero?.headline && clean(home.hero.headline));
  uniqPush(value, home.hero?.subheadline && clean(home.hero.subheadline));
  for (const b of home.blocks)
    if (b.kind === "heading" && b.level >= 2 && b.level <= 3) {
      const t = b.text.trim();
      const words = t.split(/\s+/).length;
      if (words >= 3 && words <= 12 && !GENERIC_HEADING.test(t) && !NOT_A_BENEFIT.test(t))
        uniqPush(value, clean(t));
    }
  const differ: string[] = [];
  const excl: string[] = [];
  for (const p of [home, ...others])
    for (const item of blockItems(p)) {
      if (
        item.section &&
        WHY_SECTION.test(item.section) &&
        item.text.split(/\s+/).length <= 12 &&
        !NOT_A_BENEFIT.test(item.text.trim())
      )
        uniqPush(differ, clean(item.text));
      for (const s of sentences(item.text)) {
        if (EXCLUDES.test(s)) uniqPush(excl, clean(s));
        else if (DIFFERENT.test(s)) uniqPush(differ, clean(s));
      }
    }
  return { value_propositions: value, differentiators: differ, exclusions: excl };
}

export async function draftPositioning(s: Services, by: Issuer) {
  const { orgId } = by.caller;
  const check = await checkDraftPositioning(s.database, orgId, s.clock());
  const settingsBefore = await loadSettings(s.database, orgId);
  const kept = POSITIONING_FIELDS.filter((f) => !check.empty.includes(f));
  const view = (st: typeof settingsBefore) => ({
    value_propositions: st.profile.value_propositions ?? [],
    differentiators: st.profile.differentiators ?? [],
    exclusions: st.profile.exclusions ?? [],
  });
  if (check.empty.length === 0)
    return {
      filled: [] as PositioningField[],
      kept,
      positioning: view(settingsBefore),
      source_url: undefined,
      drafts_today: { used: check.used, limit: check.cap },
    };
  const { fetcher } = await workspaceFetcher(s, orgId);
  const pool = extractPool(s.config);
  const home = await fetcher.fetch({ url: check.website });
  if (!home.ok)
    throw new DomainError("research_failed", `Could not read ${check.website}: ${home.message}`, {
      reason_code: home.error,
    });
  const homeX = (await pool.run({ html: home.text, url: home.finalUrl })).page;
  const site = new URL(home.finalUrl);
  const picks = selectPages(
    linkCandidates(homeX, site).filter((c) => ["product", "about", "customers", "pricing"].includes(c.kind)),
    site,
    4,
  );
  const others: PageExtract[] = [];
  for (const p of picks) {
    const r = await fetcher.fetch({ url: p.url });
    if (r.ok && /html/i.test(r.contentType))
      others.push((await pool.run({ html: r.text, url: r.finalUrl })).page);
  }
  const draft = draftFrom(homeX, others);
  const result = await runCommand(s.store, recordPositioningDraft, { draft, source_url: home.url }, by);
  const after = await loadSettings(s.database, orgId);
  return {
    filled: result.filled,
    kept,
    positioning: view(after),
    source_url: home.url,
    drafts_today: { used: result.used, limit: result.cap },
  };
}
