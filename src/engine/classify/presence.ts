// Page presence rules: the site's own pages appearing in or leaving its navigation (or answering not found
// cycle after cycle), and the site moving to another domain.
import { getDomain } from "tldts";
import type { Change } from "../compare/types.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import type { SignalDraft } from "./types.ts";
import { hostOf, pathOf, q, slug } from "./wording.ts";

export const MAJOR_PAGE =
  /\b(pricing|plans|enterprise|product|products|features|platform|solutions|integrations|marketplace|apps|security|trust|careers|jobs|partners|docs|developers|api|changelog|about|company|press|news|ai)\b/i;

export interface PageLink {
  link: string;
  path: string;
  label: string;
  major: boolean;
}

/** A nav/footer link change of the site's own pages (links to other sites — social, app stores — are not). */
export function pageLink(c: Change): PageLink | null {
  const added = c.kind === "page_added";
  const link = c.link ?? (added ? c.after : c.before) ?? "";
  const site = getDomain(c.url);
  if (!link || (site && getDomain(link) !== site)) return null;
  const path = pathOf(link);
  if (path === "/") return null;
  const label = c.subject && c.subject !== link ? c.subject : path;
  return { link, path, label, major: MAJOR_PAGE.test(`${label} ${path.replace(/[/_-]/g, " ")}`) };
}

export const navigationBulk = rule(
  {
    id: "navigationBulk",
    family: "page presence",
    reads: ["page_added", "page_removed"],
    gives: { marketing: ["page_added", "page_removed"] },
    severity: "low",
    when: 'Four or more minor navigation pages change in one version: one "reorganises its site navigation" signal.',
  },
  function navigationBulk(r: Rules, cs: Change[]): void {
    const added = cs.filter((c) => c.kind === "page_added");
    const removed = cs.filter((c) => c.kind === "page_removed");
    const names = (xs: Change[]) => xs.map((c) => pageLink(c)?.label ?? c.subject);
    const parts = [
      added.length ? `${added.length} added (${names(added).slice(0, 6).join(", ")})` : "",
      removed.length ? `${removed.length} removed (${names(removed).slice(0, 6).join(", ")})` : "",
    ].filter(Boolean);
    push(r, {
      key: `marketing:navigation:${slug([...names(added), "-", ...names(removed)].join(" ")).slice(0, 60)}`,
      category: "marketing",
      type: added.length >= removed.length ? "page_added" : "page_removed",
      severity: "low",
      severity_reasons: [`${cs.length} minor pages of the navigation changed at once (a reorganised site)`],
      confidence: 0.8,
      confidence_reasons: ["links in the site's navigation or footer"],
      title: `${r.name} reorganises its site navigation: ${parts.join(", ")}`,
      summary: `${r.name}'s navigation changed: ${parts.join("; ")} (${cs[0].url}).`,
      evidence: [evidence(r, cs[0], `Navigation: ${parts.join("; ")}`)],
    });
  },
);

export const page = rule(
  {
    id: "page",
    family: "page presence",
    reads: ["page_added", "page_removed"],
    gives: { marketing: ["page_added", "page_removed"] },
    severity:
      "major pages (pricing, enterprise, product, integrations, security, careers, docs, changelog …): medium, else low (a customers page is marketing proof: low)",
    when: "A navigation or footer link to one of the site's own pages appears or goes (other sites' links are ignored).",
  },
  function page(r: Rules, c: Change): void {
    const added = c.kind === "page_added";
    const info = pageLink(c);
    if (!info) return;
    const { link, path, label, major } = info;
    const key = `marketing:page:${slug(path)}`;
    push(r, {
      key,
      reverts: key,
      supersedes: key,
      value: added ? { before: null, after: "linked" } : { before: "linked", after: null },
      category: "marketing",
      type: added ? "page_added" : "page_removed",
      severity: major ? "medium" : "low",
      severity_reasons: [
        major ? `a major page ${added ? "appears" : "disappears"} (${path})` : "a minor page",
      ],
      confidence: 0.85,
      confidence_reasons: ["link in the site's navigation or footer"],
      title: added
        ? `${r.name} adds a new page to its site: ${q(label)} (${path})`
        : `${r.name} removes the ${q(label)} page from its site navigation (${path})`,
      summary: added
        ? `${r.name}'s navigation now links a page ${q(label)} (${path}).`
        : `${r.name}'s navigation no longer links its ${q(label)} page (${path}).`,
      evidence: [
        evidence(r, c, `${added ? "Navigation link" : "Removed navigation link"}: ${label} (${link})`),
      ],
      subject: label,
      sitewide: true,
    });
  },
);

export function domainOf(v: string | null): string | null {
  if (!v) return null;
  const h = hostOf(v.includes("://") ? v : `https://${v}`);
  return h ? (getDomain(h) ?? h) : null;
}

export const domain = rule(
  {
    id: "domain",
    family: "page presence",
    reads: ["meta_changed", "field_changed"],
    gives: { marketing: ["domain_change"] },
    severity: "high",
    when: "The canonical, og:url or JSON-LD url moves to another registrable domain.",
  },
  function domain(r: Rules, c: Change): boolean {
    const a = domainOf(c.after);
    const b = domainOf(c.before);
    if (!a || !b || a === b) return false;
    const key = `marketing:domain:${slug(a)}`;
    push(r, {
      ...stateChange(key, b, a),
      category: "marketing",
      type: "domain_change",
      severity: "high",
      severity_reasons: [`the site's address moves from ${b} to ${a}`],
      confidence: 0.9,
      confidence_reasons: [`${c.subject} read from the page`],
      title: `${r.name} moves its website from ${b} to ${a}`,
      summary: `${r.name}'s ${c.subject} changed from ${c.before} to ${c.after} (${c.url}).`,
      evidence: [evidence(r, c, `${c.subject}: ${c.after} (was: ${c.before})`)],
      subject: a,
    });
    return true;
  },
);

/** Failed checks in a row after which a page that answers 404/410 is reported removed. */
export const STRIKES = 3;

const KEY_KINDS = new Set([
  "pricing",
  "product",
  "docs",
  "changelog",
  "careers",
  "integrations",
  "customers",
  "security",
  "about",
]);

/** A page that answered 404/410 on STRIKES cycles in a row is removed (and one that comes back, added again):
 * the same dedup key as a navigation link that disappears, so both are one signal. The cycle calls it. */
export const pageGone = rule(
  {
    id: "pageGone",
    family: "page presence",
    reads: ["failed_check"],
    gives: { marketing: ["page_removed", "page_added"] },
    severity: "major pages (pricing, product, docs, changelog, careers …): medium, else low",
    when: "A monitored page (not the home page) answers 404 or 410 on three cycles in a row; one that was reported removed answers again.",
  },
  function pageGone(
    competitor: string,
    src: { url: string; kind: string },
    removed: boolean,
    at: string,
    detail: string,
  ): SignalDraft {
    const u = new URL(src.url);
    const path = u.pathname || "/";
    const key = `marketing:page:${slug(path)}`;
    const major = KEY_KINDS.has(src.kind);
    return {
      key,
      reverts: key,
      supersedes: key,
      value: removed ? { before: "linked", after: null } : { before: null, after: "linked" },
      category: "marketing",
      type: removed ? "page_removed" : "page_added",
      severity: major ? "medium" : "low",
      severity_reasons: [
        major ? `a major page (${src.kind}) ${removed ? "disappears" : "is back"}` : "a minor page",
      ],
      confidence: removed ? 0.8 : 0.85,
      confidence_reasons: [
        removed ? `the page answered not found on ${STRIKES} cycles in a row` : "the page answers again",
      ],
      title: removed
        ? `${competitor} removes its ${path} page`
        : `${competitor} brings back its ${path} page`,
      summary: removed
        ? `${src.url} has answered not found on ${STRIKES} monitoring cycles in a row (${detail}).`
        : `${src.url} answers again after being reported removed.`,
      evidence: [{ text: `${src.url}: ${detail}`, source_url: src.url, observed_at: at }],
      subject: path,
    };
  },
);

const GONE = /^http_error (404|410)$/;

/** A source whose last STRIKES checks in a row answered not found: reported removed. */
export function reportedGone(state: { failures: number; lastError: string | null } | undefined): boolean {
  return !!state && state.failures >= STRIKES && GONE.test(state.lastError ?? "");
}

/** The page-gone draft one check of a page source gives, if any: its STRIKES-th not-found answer in a row (a
 * page that had a snapshot), or the first good answer of a page reported removed. The home page is never gone. */
export function pageGoneAfterCheck(
  competitor: string,
  src: { url: string; kind: string },
  check: { failed: true; error: string; failures: number; since: string } | { failed: false },
  before: { failures: number; lastError: string | null; latestHash: string | null } | undefined,
  at: string,
): SignalDraft | undefined {
  if (src.kind === "home") return undefined;
  if (check.failed)
    return check.failures === STRIKES && GONE.test(check.error) && before?.latestHash
      ? pageGone(competitor, src, true, at, `${check.error}, failing since ${check.since}`)
      : undefined;
  return reportedGone(before) ? pageGone(competitor, src, false, at, "answers again") : undefined;
}
