// classify(changes, ctx) → SignalDraft[]: transparent rules from compare()'s Changes to ENGINE.md's taxonomy,
// with severity and confidence reasons, deterministic titles and summaries that state the values, evidence
// items and dedup keys (docs/engine.md "Classification and signals"). Pure and synchronous.
import { getDomain } from "tldts";
import { formatAmount } from "../../domain/money.ts";
import { type EvidenceItem, severityRank } from "../../domain/records.ts";
import { formatPrice } from "../compare/compare.ts";
import type { Change, PriceValue, SnapPlan } from "../compare/types.ts";
import { similarity, tokens } from "../compare/words.ts";
import { certificationsIn, INCIDENT, launchSubject, readNews } from "./news.ts";
import { findRole } from "./roles.ts";
import type { ClassifyContext, Severity, SignalDraft } from "./types.ts";

// ---- helpers -------------------------------------------------------------------------------------------

const MASKED = /⟨[a-z]+⟩/g;

/** A key part: lower-case words joined by "-" (accents folded). */
export function slug(s: string): string {
  return (
    s
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "x"
  );
}

function clip(s: string, max: number): string {
  const t = s.replace(/\s+/g, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1).trimEnd()}…` : t;
}

const q = (s: string) => `"${clip(s, 120)}"`;

function pathOf(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname.replace(/\/+$/, "") || "/";
  } catch {
    return url;
  }
}

/** A page's path as a key part: "home" for the root. */
function pathKey(url: string): string {
  const p = pathOf(url);
  return p === "/" ? "home" : slug(p);
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return null;
  }
}

/** Words of a text that carry meaning (masked values, punctuation and one-letter tokens left out). */
function words(s: string | null | undefined): string[] {
  return tokens((s ?? "").replace(MASKED, " ")).filter((w) => w.length > 1 || /\d/.test(w));
}

/** The words a change added or removed. */
function changedWords(c: Change): string[] {
  if (c.kind === "list_changed" && (c.added || c.removed)) {
    // Members are whole lines: count the words that differ between what was added and what was removed.
    const left = new Map<string, number>();
    for (const w of words((c.removed ?? []).join(" "))) left.set(w, (left.get(w) ?? 0) + 1);
    const out: string[] = [];
    for (const w of words((c.added ?? []).join(" "))) {
      const n = left.get(w) ?? 0;
      if (n > 0) left.set(w, n - 1);
      else out.push(w);
    }
    for (const [w, n] of left) for (let i = 0; i < n; i++) out.push(w);
    return out;
  }
  if (c.diff) return c.diff.filter((p) => p.op !== "=").flatMap((p) => words(p.text));
  return [...words(c.before), ...words(c.after)];
}

function planLabel(name: string): string {
  return /\b(plan|tier|edition|package)$/i.test(name.trim()) ? name.trim() : `${name.trim()} plan`;
}

function money(p: PriceValue): string {
  return typeof p.price === "number" ? formatAmount(p.price, p.currency) : formatPrice(p);
}

function pct(delta: number): string {
  const p = delta * 100;
  const r = Math.abs(p) < 1 ? Math.round(p * 10) / 10 : Math.round(p);
  return `${r > 0 ? "+" : ""}${r}%`;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

// ---- the classifier ------------------------------------------------------------------------------------

interface Rules {
  ctx: ClassifyContext;
  name: string;
  out: SignalDraft[];
}

/** Masked values (⟨date⟩ …) carry nothing a reader can use: left out of evidence text. */
function unmasked(text: string): string {
  return text
    .replace(/\s*·\s*⟨[a-z]+⟩(?=\s*(?:·|$|\)))/g, "")
    .replace(/⟨[a-z]+⟩\s*·\s*/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

function evidence(r: Rules, c: Change, text: string, url?: string, title?: string): EvidenceItem {
  const e: EvidenceItem = { text: clip(unmasked(text), 600) };
  const t = title ?? r.ctx.pageTitle;
  if (t) e.source_title = t;
  e.source_url = url ?? c.url;
  e.observed_at = r.ctx.observedAt;
  return e;
}

/** Evidence text of a change: the new text with context, and what it was. */
function changeText(c: Change): string {
  if (c.kind === "list_changed" && (c.added?.length || c.removed?.length)) {
    const parts = [
      c.added?.length ? `added ${c.added.join("; ")}` : "",
      c.removed?.length ? `removed ${c.removed.join("; ")}` : "",
    ].filter(Boolean);
    return `${c.subject || c.section || "List"}: ${parts.join("; ")} (now: ${clip(c.after ?? "", 240)})`;
  }
  if (c.before !== null && c.after !== null) {
    const now = c.context && c.context.length > (c.after?.length ?? 0) ? c.context : c.after;
    return `${now} (was: ${clip(c.before, 240)})`;
  }
  if (c.after !== null) return c.context ?? c.after;
  return `Removed: ${c.before ?? c.excerpt}`;
}

const KEY_PAGES = new Set(["home", "pricing", "product", "features", "platform"]);

const pageWord = (kind: string) =>
  kind === "home" ? "home page" : kind === "feed" ? "feed" : kind === "jobs" ? "job board" : `${kind} page`;

function push(r: Rules, d: SignalDraft): void {
  d.title = clip(d.title, 300);
  d.summary = clip(d.summary, 1000);
  r.out.push(d);
}

// ---- pricing -------------------------------------------------------------------------------------------

function planPrice(r: Rules, c: Change): void {
  const b = c.price?.before;
  const a = c.price?.after;
  if (!b || !a) return;
  const plan = planLabel(c.subject);
  const key = `pricing:price:${slug(c.subject)}`;
  const ev = [evidence(r, c, `${c.subject}: ${formatPrice(b)} → ${formatPrice(a)}`)];
  const conf = r.ctx.pageKind === "pricing" ? 0.95 : 0.85;
  const confReasons = [
    r.ctx.pageKind === "pricing"
      ? "price read from the plan on the pricing page"
      : `price read from a plan on the ${pageWord(r.ctx.pageKind)}`,
  ];
  const base = {
    key,
    supersedes: key,
    reverts: key,
    value: { before: formatPrice(b), after: formatPrice(a) },
    subject: c.subject,
    evidence: ev,
    confidence: conf,
    confidence_reasons: confReasons,
  };
  const sameShape = b.currency === a.currency && b.unit === a.unit && b.period === a.period;
  const from = sameShape ? money(b) : formatPrice(b);
  if (typeof b.price === "number" && typeof a.price === "number") {
    if (b.price === a.price) {
      // Same amount, other unit, period or currency: the packaging of the price changed.
      push(r, {
        ...base,
        category: "pricing",
        type: "packaging_change",
        severity: "medium",
        severity_reasons: [`${plan}'s price terms changed (unit, billing period or currency)`],
        title: `${r.name} changes ${plan} pricing from ${formatPrice(b)} to ${formatPrice(a)}`,
        summary: `${r.name}'s ${plan} is now ${formatPrice(a)}, previously ${formatPrice(b)} (${c.url}).`,
      });
      return;
    }
    if (b.price === 0 || a.price === 0) {
      const ends = b.price === 0;
      push(r, {
        ...base,
        category: "pricing",
        type: "free_tier_change",
        severity: "high",
        severity_reasons: [ends ? `the free ${plan} now costs ${formatPrice(a)}` : `${plan} is now free`],
        title: ends
          ? `${r.name} ends its free tier: ${plan} now costs ${formatPrice(a)}`
          : `${r.name} makes ${plan} free (was ${formatPrice(b)})`,
        summary: ends
          ? `${r.name}'s ${plan} was free and now costs ${formatPrice(a)} (${c.url}).`
          : `${r.name}'s ${plan} now costs nothing, down from ${formatPrice(b)} (${c.url}).`,
      });
      return;
    }
    const delta = c.price?.delta ?? (a.price - b.price) / b.price;
    const up = a.price > b.price;
    const big = Math.abs(delta) >= 0.1;
    push(r, {
      ...base,
      category: "pricing",
      type: up ? "price_increase" : "price_decrease",
      severity: big ? "high" : "medium",
      severity_reasons: [`${plan} is a paid plan and its price moved ${pct(delta)} (${big ? "≥" : "<"} 10%)`],
      title: `${r.name} ${up ? "raises" : "cuts"} ${plan} price from ${from} to ${formatPrice(a)} (${pct(delta)})`,
      summary: `${r.name} ${up ? "raised" : "lowered"} the price of its ${plan} from ${formatPrice(b)} to ${formatPrice(a)}, ${pct(delta)} (${c.url}).`,
    });
    return;
  }
  // A price appears or goes (custom pricing, "contact sales").
  push(r, {
    ...base,
    category: "pricing",
    type: "packaging_change",
    severity: "medium",
    severity_reasons: [
      `${plan} switched between a listed price and ${a.price === null ? "no listed price" : "a listed price"}`,
    ],
    title: `${r.name} changes ${plan} pricing from ${formatPrice(b)} to ${formatPrice(a)}`,
    summary: `${r.name}'s ${plan} is now ${formatPrice(a)}, previously ${formatPrice(b)} (${c.url}).`,
  });
}

function planPresence(r: Rules, c: Change): void {
  const added = c.kind === "plan_added";
  const p = (added ? c.price?.after : c.price?.before) ?? { price: null };
  const plan = planLabel(c.subject);
  const free = p.price === 0;
  const key = free ? "pricing:free_tier" : `pricing:plan:${slug(c.subject)}`;
  const feats = (added ? c.added : c.removed) ?? [];
  const featText = feats.length ? ` — ${feats.slice(0, 8).join(", ")}` : "";
  const ev = [evidence(r, c, `${added ? "" : "Removed: "}${c.subject}: ${formatPrice(p)}${featText}`)];
  const base = {
    key,
    supersedes: key,
    reverts: key,
    value: added ? { before: null, after: "listed" } : { before: "listed", after: null },
    subject: c.subject,
    evidence: ev,
    confidence: r.ctx.pageKind === "pricing" ? 0.95 : 0.85,
    confidence_reasons: [
      `plan ${added ? "found" : "missing"} among the plans of the ${pageWord(r.ctx.pageKind)}`,
    ],
  };
  if (free) {
    push(r, {
      ...base,
      category: "pricing",
      type: "free_tier_change",
      severity: "high",
      severity_reasons: [added ? "a free tier appears" : "the free tier ends"],
      title: added ? `${r.name} adds a free ${plan} (${formatPrice(p)})` : `${r.name} ends its free ${plan}`,
      summary: added
        ? `${r.name} now offers a free ${plan}${featText} (${c.url}).`
        : `${r.name} no longer lists its free ${plan}${featText} (${c.url}).`,
    });
    return;
  }
  const priced = p.price === null ? (p.custom ? " (custom pricing)" : "") : ` at ${formatPrice(p)}`;
  push(r, {
    ...base,
    category: "pricing",
    type: added ? "plan_added" : "plan_removed",
    severity: "high",
    severity_reasons: [added ? "a plan is added" : "a plan is removed"],
    title: added
      ? `${r.name} adds ${plan}${priced}`
      : `${r.name} removes ${plan}${priced ? ` (was${priced.replace(/^ at/, "")})` : ""}`,
    summary: added
      ? `${r.name} lists a new ${plan}${priced}${featText} (${c.url}).`
      : `${r.name} no longer lists its ${plan}${priced ? `, previously${priced.replace(/^ at/, "")}` : ""} (${c.url}).`,
  });
}

const numberless = (s: string) =>
  s
    .toLowerCase()
    .replace(/\d[\d.,]*\s*[km]?/gi, "#")
    .replace(/\s+/g, " ")
    .trim();
const cosmetic = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");

function planFeatures(r: Rules, c: Change, all: Change[]): void {
  const plan = planLabel(c.subject);
  let added = [...(c.added ?? [])];
  let removed = [...(c.removed ?? [])];
  // Only case, spacing or punctuation differs: nothing.
  const cos = new Set(removed.map(cosmetic));
  const cosA = new Set(added.map(cosmetic));
  added = added.filter((x) => !cos.has(cosmetic(x)));
  removed = removed.filter((x) => !cosA.has(cosmetic(x)));
  const plans: SnapPlan[] = r.ctx.snapshot?.plans ?? [];
  const priceOf = (name: string) => plans.find((p) => p.name.toLowerCase() === name.toLowerCase());
  // A feature that leaves this plan and is (or becomes) part of a dearer plan moved up a tier.
  for (const f of [...removed]) {
    const fk = f.toLowerCase();
    const here = priceOf(c.subject);
    const dearer = plans.find(
      (p) =>
        p.name.toLowerCase() !== c.subject.toLowerCase() &&
        p.features.some((x) => x.toLowerCase() === fk) &&
        (p.custom || (p.price ?? 0) > (here?.price ?? 0) || (here?.price ?? 0) === 0),
    );
    const movedTo =
      dearer?.name ??
      all.find(
        (o) =>
          o !== c &&
          o.kind === "plan_features_changed" &&
          (o.added ?? []).some((x) => x.toLowerCase() === fk) &&
          (!priceOf(o.subject) || !here || (priceOf(o.subject)?.price ?? 0) >= (here.price ?? 0)),
      )?.subject;
    if (!movedTo) continue;
    removed = removed.filter((x) => x !== f);
    const key = `pricing:tier:${slug(f)}`;
    push(r, {
      key,
      category: "pricing",
      type: "packaging_change",
      severity: "high",
      severity_reasons: [`"${f}" moved from the ${plan} to the ${planLabel(movedTo)} (a higher tier)`],
      confidence: r.ctx.snapshot ? 0.9 : 0.8,
      confidence_reasons: [
        r.ctx.snapshot
          ? "feature left one plan's list and is listed on a dearer plan"
          : "feature left one plan's list and joined another's in the same version",
      ],
      title: `${r.name} moves ${f} from ${plan} to ${planLabel(movedTo)}`,
      summary: `${r.name}'s ${plan} no longer includes ${f}; it is part of the ${planLabel(movedTo)} (${c.url}).`,
      evidence: [evidence(r, c, `${c.subject}: removed "${f}"; ${movedTo}: includes "${f}"`)],
      subject: f,
    });
  }
  // Removals from a plan that another plan's change added (the other side of a move) are reported there.
  added = added.filter(
    (x) =>
      !all.some(
        (o) =>
          o !== c &&
          o.kind === "plan_features_changed" &&
          (o.removed ?? []).some((y) => y.toLowerCase() === x.toLowerCase()),
      ),
  );
  if (!added.length && !removed.length) return;
  // Limits: the same line with other numbers ("Up to 10,000 contacts" → "Up to 5,000 contacts").
  const limits: [string, string][] = [];
  for (const x of [...removed]) {
    const y = added.find((a) => numberless(a) === numberless(x) && a !== x);
    if (!y) continue;
    limits.push([x, y]);
    removed = removed.filter((v) => v !== x);
    added = added.filter((v) => v !== y);
  }
  // Rewordings: a removed and an added line that are mostly the same words.
  const reworded: [string, string][] = [];
  for (const x of [...removed]) {
    const y = added.find((a) => similarity(a, x) >= 0.5);
    if (!y) continue;
    reworded.push([x, y]);
    removed = removed.filter((v) => v !== x);
    added = added.filter((v) => v !== y);
  }
  const parts: string[] = [];
  for (const [x, y] of limits) parts.push(`${x} → ${y}`);
  for (const x of added) parts.push(`adds ${x}`);
  for (const x of removed) parts.push(`drops ${x}`);
  for (const [x, y] of reworded) parts.push(`${x} → ${y}`);
  if (!parts.length) return;
  const material = limits.length > 0 || added.length > 0 || removed.length > 0;
  const severity: Severity = material ? "medium" : "low";
  const reasons = material
    ? [limits.length ? `${plan} limits changed` : `${plan}'s included features changed`]
    : [`${plan} feature wording only`];
  const what = limits.length && !added.length && !removed.length ? "limits" : "features";
  const detail = parts.slice(0, 4).join("; ");
  push(r, {
    key: `pricing:packaging:${slug(c.subject)}:${slug(parts.join(" "))}`,
    category: "pricing",
    type: "packaging_change",
    severity,
    severity_reasons: reasons,
    confidence: r.ctx.pageKind === "pricing" ? 0.9 : 0.8,
    confidence_reasons: [`plan features read from the ${pageWord(r.ctx.pageKind)}`],
    title: `${r.name} changes ${plan} ${what}: ${detail}`,
    summary: `${r.name} changed what its ${plan} includes: ${parts.join("; ")} (${c.url}).`,
    evidence: [evidence(r, c, `${c.subject}: ${parts.join("; ")}`)],
    subject: c.subject,
  });
}

const MONEY = /(?:US\$|[$€£¥₹]|\b(?:USD|EUR|GBP)\s?)\s?(\d[\d,]*(?:\.\d+)?)(\s?[kK])?/g;

function amounts(text: string): number[] {
  return [...text.matchAll(MONEY)].map((m) => Number(m[1].replace(/,/g, "")) * (m[2] ? 1000 : 1));
}

/** A price in the prose of the pricing page that changed (an add-on, a price in the description): not a
 * plan's structured price, so medium at most. Amounts a plan change of the same version covers are skipped. */
function priceText(r: Rules, c: Change, covered: Set<number>): boolean {
  if (r.ctx.pageKind !== "pricing" || c.before === null || c.after === null || !c.diff) return false;
  const gone = amounts(
    c.diff
      .filter((p) => p.op === "-")
      .map((p) => p.text)
      .join(" "),
  );
  const come = amounts(
    c.diff
      .filter((p) => p.op === "+")
      .map((p) => p.text)
      .join(" "),
  );
  // Amounts whose digits the word diff split ("US$[-24][+30],000"): read whole from both versions.
  const wasAll = amounts(c.before);
  const nowAll = amounts(c.after);
  const was = wasAll.filter((x) => !nowAll.includes(x));
  const now = nowAll.filter((x) => !wasAll.includes(x));
  if (
    !was.length ||
    !now.length ||
    (!gone.length && !come.length && !c.diff.some((p) => p.op !== "=" && /\d/.test(p.text)))
  )
    return false;
  if ([...was, ...now].every((x) => covered.has(x))) return true;
  const b = was[0];
  const a = now[0];
  const up = a > b;
  const delta = b > 0 ? (a - b) / b : 0;
  const sym = /US\$|\$/.test(c.after) ? "$" : /€/.test(c.after) ? "€" : /£/.test(c.after) ? "£" : "";
  const fmt = (n: number) => `${sym}${n.toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
  const line = c.context ?? c.after;
  const key = `pricing:price_text:${slug(c.section ?? c.subject)}:${slug(line.replace(/\d[\d,.]*/g, "#")).slice(0, 60)}`;
  push(r, {
    key,
    supersedes: key,
    reverts: key,
    value: { before: fmt(b), after: fmt(a) },
    category: "pricing",
    type: up ? "price_increase" : "price_decrease",
    severity: "medium",
    severity_reasons: [
      `a price stated in the pricing page's text moved${b > 0 ? ` ${pct(delta)}` : ""} (not a plan's listed price)`,
    ],
    confidence: 0.75,
    confidence_reasons: ["amount read from the pricing page's text"],
    title: `${r.name} ${up ? "raises" : "cuts"} a price on its pricing page from ${fmt(b)} to ${fmt(a)}${b > 0 ? ` (${pct(delta)})` : ""}`,
    summary: `${r.name}'s pricing page now says ${q(clip(line, 200))}, previously ${fmt(b)} (${c.url}).`,
    evidence: [evidence(r, c, changeText(c))],
    subject: c.section ?? c.subject,
  });
  return true;
}

// ---- product -------------------------------------------------------------------------------------------

/** Added and removed names that are one renamed thing ("Audit log" → "Audit logs"): neither is reported. */
function renames(changes: Change[], add: Change["kind"], remove: Change["kind"]): Set<Change> {
  const out = new Set<Change>();
  const adds = changes.filter((c) => c.kind === add);
  const rems = changes.filter((c) => c.kind === remove);
  for (const a of adds) {
    const r = rems.find(
      (x) =>
        !out.has(x) &&
        (cosmetic(x.subject) === cosmetic(a.subject) ||
          similarity(x.subject, a.subject) >= 0.5 ||
          cosmetic(x.subject).replace(/s$/, "") === cosmetic(a.subject).replace(/s$/, "")),
    );
    if (r) {
      out.add(a);
      out.add(r);
    }
  }
  return out;
}

function feature(r: Rules, c: Change): void {
  const added = c.kind === "feature_added";
  const f = c.subject;
  const key = `product:launch:${slug(launchSubject(f, r.name))}`;
  const flagship = r.ctx.pageKind === "home" || r.ctx.pageKind === "pricing";
  push(r, {
    key,
    ...(added ? {} : { reverts: key, supersedes: key }),
    value: added ? { before: null, after: "listed" } : { before: "listed", after: null },
    category: "product",
    type: added ? "feature_launch" : "feature_removed",
    severity: added ? (flagship ? "high" : "medium") : "high",
    severity_reasons: added
      ? [flagship ? `new feature on the ${pageWord(r.ctx.pageKind)} (flagship)` : "new feature listed"]
      : ["a feature removed"],
    confidence: 0.85,
    confidence_reasons: [`feature list of the ${pageWord(r.ctx.pageKind)}`],
    title: added ? `${r.name} adds feature: ${clip(f, 120)}` : `${r.name} removes feature: ${clip(f, 120)}`,
    summary: added
      ? `${r.name} now lists ${q(f)} among its features on its ${pageWord(r.ctx.pageKind)} (${c.url}).`
      : `${r.name} no longer lists ${q(f)} among its features on its ${pageWord(r.ctx.pageKind)} (${c.url}).`,
    evidence: [evidence(r, c, added ? `Feature: ${f}` : `Removed feature: ${f}`)],
    subject: launchSubject(f, r.name),
  });
}

function integration(r: Rules, c: Change): void {
  const added = c.kind === "integration_added";
  const n = c.subject.trim();
  const label = /\bintegration$/i.test(n) ? n : `${n} integration`;
  const key = `product:integration:${slug(n)}`;
  push(r, {
    key,
    reverts: key,
    supersedes: key,
    value: added ? { before: null, after: "listed" } : { before: "listed", after: null },
    category: "product",
    type: added ? "integration_added" : "integration_removed",
    severity: "medium",
    severity_reasons: [added ? "an integration is added" : "an integration is removed"],
    confidence: r.ctx.pageKind === "integrations" ? 0.9 : 0.8,
    confidence_reasons: [`integrations listed on the ${pageWord(r.ctx.pageKind)}`],
    title: added ? `${r.name} adds ${label}` : `${r.name} removes ${label}`,
    summary: added
      ? `${r.name} now lists ${n} among its integrations (${c.url}).`
      : `${r.name} no longer lists ${n} among its integrations (${c.url}).`,
    evidence: [evidence(r, c, added ? `Integration: ${n}` : `Removed integration: ${n}`)],
    subject: n,
  });
}

// ---- announcements (feed items, new entries on blog / changelog / press pages) -----------------------

const NEWS_PAGES = new Set([
  "feed",
  "blog",
  "changelog",
  "releases",
  "release_notes",
  "press",
  "news",
  "newsroom",
  "github",
  "about",
  "security",
  "trust",
]);

function announcement(
  r: Rules,
  c: Change,
  title: string,
  body: string,
  link: string | undefined,
  extra: EvidenceItem[] = [],
): boolean {
  const kind =
    c.source === "feed" && /github\.com\/.+\/releases/.test(c.url)
      ? "github"
      : c.source === "feed" && /changelog|release|updates|whats-?new/i.test(c.url)
        ? "changelog"
        : r.ctx.pageKind;
  const n = readNews(title, body, r.name, kind);
  if (!n) return false;
  let severity = n.severity;
  const reasons = [`${n.rule}: "${n.matched}" in ${q(title)}`];
  if (n.type === "feature_launch" && (r.ctx.pageKind === "home" || r.ctx.pageKind === "pricing")) {
    severity = "high";
    reasons.push(`announced on the ${pageWord(r.ctx.pageKind)} (flagship launch)`);
  }
  const versionOnly = n.type === "release" && /^v\d/.test(n.subject);
  // A repository's release names the repository: "globex-js v4.3.0".
  const repo = kind === "github" ? /github\.com\/[^/]+\/([^/]+)\/releases/.exec(c.url)?.[1] : undefined;
  if (versionOnly && repo) n.subject = `${repo} ${n.subject}`;
  const keyPart =
    n.type === "feature_launch" || (n.type === "release" && !versionOnly)
      ? `product:launch:${slug(n.subject)}`
      : `${n.category}:${n.type}:${slug(n.subject)}`;
  const url = link ?? c.url;
  const text = body ? `${title} — ${clip(body, 400)}` : title;
  const fromFeed = c.source === "feed";
  const where = fromFeed ? "feed" : pageWord(r.ctx.pageKind);
  push(r, {
    key: keyPart,
    category: n.category,
    type: n.type,
    severity,
    severity_reasons: reasons,
    confidence: fromFeed ? 0.8 : 0.75,
    confidence_reasons: [`keyword rule on a new ${fromFeed ? "feed item" : `entry of the ${where}`}'s title`],
    title: newsTitle(r.name, n.type, n.subject, title),
    summary: `${r.name} published ${q(title)} on its ${where}${url ? ` (${url})` : ""}.${body ? ` ${clip(body, 300)}` : ""}`,
    evidence: [evidence(r, c, text, url, fromFeed ? title : r.ctx.pageTitle), ...extra],
    subject: n.subject,
  });
  return true;
}

function newsTitle(name: string, type: string, subject: string, title: string): string {
  switch (type) {
    case "feature_launch":
      return `${name} launches ${subject}`;
    case "release":
      return /^v\d/.test(subject) ? `${name} releases ${subject}` : `${name} releases ${subject}`;
    case "acquisition":
      return /^.+ by /.test(subject) && subject.startsWith(name)
        ? `${name} is acquired: ${clip(title, 160)}`
        : `${name} acquires ${subject}`;
    case "funding":
      return `${name} raises funding${subject ? `: ${subject}` : ""}`;
    case "leadership_change":
      return `${name} leadership change (${subject}): ${clip(title, 160)}`;
    case "partnership":
      return `${name} announces partnership with ${subject}`;
    case "office_opening":
      return `${name} opens an office in ${subject}`;
    case "security_incident":
      return `${name} reports a security incident: ${clip(title, 160)}`;
    case "certification":
      return `${name} announces ${subject} certification`;
    case "policy_change":
      return `${name} updates its ${subject}`;
    default:
      return `${name}: ${clip(title, 200)}`;
  }
}

/** New entries on article-like pages: an added heading with the paragraphs under it, or a new card. */
function entries(r: Rules, changes: Change[]): Set<Change> {
  const used = new Set<Change>();
  const added = changes.filter((c) => c.kind === "text_added");
  for (const c of added) {
    const isHeading = c.after !== null && c.subject === c.after && !c.added;
    const isCard = !!c.added && c.after !== null && c.after.includes(": ");
    if (!isHeading && !isCard) continue;
    const title = isHeading ? c.after! : c.after!.split(": ")[0];
    const bodyParts = isCard ? [c.after!.slice(title.length + 2)] : [];
    const under = added.filter((o) => o !== c && o.section === title && o.subject !== o.after);
    for (const o of under) bodyParts.push(o.after ?? "");
    if (announcement(r, c, title, bodyParts.join(" "), undefined)) {
      used.add(c);
      for (const o of under) used.add(o);
    }
  }
  return used;
}

// ---- marketing -----------------------------------------------------------------------------------------

const MAJOR_PAGE =
  /\b(pricing|plans|enterprise|product|products|features|platform|solutions|integrations|marketplace|apps|security|trust|careers|jobs|customers|partners|docs|developers|api|changelog|about|company|press|news|ai)\b/i;

interface PageLink {
  link: string;
  path: string;
  label: string;
  major: boolean;
}

/** A nav/footer link change of the site's own pages (links to other sites — social, app stores — are not). */
function pageLink(c: Change): PageLink | null {
  const added = c.kind === "page_added";
  const link = c.link ?? (added ? c.after : c.before) ?? "";
  const site = getDomain(c.url);
  if (!link || (site && getDomain(link) !== site)) return null;
  const path = pathOf(link);
  if (path === "/") return null;
  const label = c.subject && c.subject !== link ? c.subject : path;
  return { link, path, label, major: MAJOR_PAGE.test(`${label} ${path.replace(/[/_-]/g, " ")}`) };
}

/** Bulk changes of one version (a redesign) are one signal, not one per item. */
const BULK = 5;

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
}

function featuresBulk(r: Rules, added: Change[], removed: Change[]): void {
  const where = pageWord(r.ctx.pageKind);
  const list = (xs: Change[]) => xs.map((c) => c.subject);
  if (added.length >= BULK - 1 && removed.length >= BULK - 1) {
    push(r, {
      key: `marketing:features:${pathKey(added[0].url)}:${slug(list(added).join(" ")).slice(0, 50)}`,
      category: "marketing",
      type: "messaging_change",
      severity: "low",
      severity_reasons: [`the feature list was rewritten (${added.length} added, ${removed.length} removed)`],
      confidence: 0.75,
      confidence_reasons: [`feature list of the ${where}`],
      title: `${r.name} reworks the feature list of its ${where} (${added.length} added, ${removed.length} removed)`,
      summary: `${r.name} rewrote the features on its ${where}: now ${list(added).slice(0, 8).join(", ")}; no longer ${list(removed).slice(0, 8).join(", ")} (${added[0].url}).`,
      evidence: [
        evidence(r, added[0], `Added: ${list(added).join("; ")}. Removed: ${list(removed).join("; ")}`),
      ],
    });
    return;
  }
  for (const [side, xs] of [
    ["added", added],
    ["removed", removed],
  ] as const) {
    if (xs.length < BULK) {
      for (const c of xs) feature(r, c);
      continue;
    }
    const flagship = r.ctx.pageKind === "home" || r.ctx.pageKind === "pricing";
    const names = list(xs);
    push(r, {
      key: `product:features_${side}:${pathKey(xs[0].url)}:${slug(names.join(" ")).slice(0, 50)}`,
      category: "product",
      type: side === "added" ? "feature_launch" : "feature_removed",
      severity: side === "added" ? (flagship ? "high" : "medium") : "high",
      severity_reasons: [
        side === "added" ? `${xs.length} new features listed` : `${xs.length} features removed`,
      ],
      confidence: 0.8,
      confidence_reasons: [`feature list of the ${where}`],
      title: `${r.name} ${side === "added" ? "adds" : "removes"} ${xs.length} features: ${clip(names.slice(0, 4).join(", "), 160)}${xs.length > 4 ? ", …" : ""}`,
      summary: `${r.name}'s ${where} ${side === "added" ? "now lists" : "no longer lists"} ${names.join(", ")} (${xs[0].url}).`,
      evidence: [
        evidence(
          r,
          xs[0],
          `${side === "added" ? "Features added" : "Features removed"}: ${names.join("; ")}`,
        ),
      ],
    });
  }
}

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
    severity_reasons: [major ? `a major page ${added ? "appears" : "disappears"} (${path})` : "a minor page"],
    confidence: 0.85,
    confidence_reasons: ["link in the site's navigation or footer"],
    title: added
      ? `${r.name} adds a new page to its site: ${q(label)} (${path})`
      : `${r.name} removes the ${q(label)} page from its site navigation (${path})`,
    summary: added
      ? `${r.name}'s navigation now links ${q(label)} at ${link}.`
      : `${r.name}'s navigation no longer links ${q(label)} (${link}).`,
    evidence: [
      evidence(r, c, `${added ? "Navigation link" : "Removed navigation link"}: ${label} (${link})`),
    ],
    subject: label,
  });
}

function hero(r: Rules, c: Change, metas: Change[]): void {
  const kind = r.ctx.pageKind;
  if (!KEY_PAGES.has(kind) || c.after === null) return;
  if (c.before !== null && changedWords(c).length < 2) return;
  // A hero that announces a launch is the launch (on the home page: a flagship one).
  const headline = c.after.split(" — ")[0] ?? c.after;
  if (/\b(introducing|announcing|meet|now available|is here|just launched|new:)\b/i.test(headline)) {
    if (announcement(r, c, headline, c.after.slice(headline.length + 3), undefined)) return;
  }
  const home = kind === "home";
  const key = `marketing:messaging:${pathKey(c.url)}`;
  push(r, {
    key,
    supersedes: key,
    reverts: key,
    value: { before: c.before, after: c.after },
    category: "marketing",
    type: "messaging_change",
    severity: home ? "medium" : "low",
    severity_reasons: [
      home ? "the home page headline/positioning changes" : `headline of the ${pageWord(kind)} changes`,
    ],
    confidence: 0.9,
    confidence_reasons: ["hero headline read from the page"],
    title: `${r.name} changes its ${pageWord(kind)} headline to ${q(headline)}`,
    summary: c.before
      ? `${r.name}'s ${pageWord(kind)} now leads with ${q(c.after)} instead of ${q(c.before)} (${c.url}).`
      : `${r.name}'s ${pageWord(kind)} now leads with ${q(c.after)} (${c.url}).`,
    evidence: [evidence(r, c, changeText(c)), ...metas.map((m) => evidence(r, m, changeText(m)))],
    subject: "headline",
  });
}

function domainOf(v: string | null): string | null {
  if (!v) return null;
  const h = hostOf(v.includes("://") ? v : `https://${v}`);
  return h ? (getDomain(h) ?? h) : null;
}

function domain(r: Rules, c: Change): boolean {
  const a = domainOf(c.after);
  const b = domainOf(c.before);
  if (!a || !b || a === b) return false;
  const key = `marketing:domain:${slug(a)}`;
  push(r, {
    key,
    supersedes: key,
    reverts: key,
    value: { before: b, after: a },
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
}

function meta(r: Rules, c: Change): void {
  if (r.ctx.pageKind !== "home" || c.after === null) return;
  if (c.subject !== "title" && c.subject !== "meta:description") return;
  if (changedWords(c).length < 2) return;
  const what = c.subject === "title" ? "page title" : "meta description";
  const key = `marketing:meta:${slug(c.subject)}`;
  push(r, {
    key,
    supersedes: key,
    reverts: key,
    value: { before: c.before, after: c.after },
    category: "marketing",
    type: "messaging_change",
    severity: "low",
    severity_reasons: [`home page ${what} copy`],
    confidence: 0.85,
    confidence_reasons: [`${what} read from the page`],
    title: `${r.name} changes its home page ${what} to ${q(c.after)}`,
    summary: `${r.name}'s home page ${what} is now ${q(c.after)}${c.before ? `, was ${q(c.before)}` : ""} (${c.url}).`,
    evidence: [evidence(r, c, changeText(c))],
    subject: what,
  });
}

// ---- company facts from structured data ---------------------------------------------------------------

function address(r: Rules, cs: Change[]): void {
  const parts = cs.filter((c) =>
    /address\.(addressLocality|addressRegion|addressCountry|streetAddress)$/.test(c.subject),
  );
  const loc = parts.find((c) => /addressLocality$/.test(c.subject)) ?? parts[0];
  if (!loc || loc.after === null) return;
  const country = parts.find((c) => /addressCountry$/.test(c.subject))?.after;
  const where = [loc.after, country && country !== loc.after ? country : null].filter(Boolean).join(", ");
  push(r, {
    key: `company:office_opening:${slug(loc.after)}`,
    category: "company",
    type: "office_opening",
    severity: "medium",
    severity_reasons: ["an office address appears in the company's structured data"],
    confidence: 0.7,
    confidence_reasons: ["JSON-LD address on the page; a move and a new office read the same"],
    title: loc.before
      ? `${r.name} lists its address in ${where} (was ${loc.before})`
      : `${r.name} lists an address in ${where}`,
    summary: `${r.name}'s structured data now gives its address as ${where}${loc.before ? ` instead of ${loc.before}` : ""} (${loc.url}).`,
    evidence: parts.map((c) =>
      evidence(r, c, `${c.subject}: ${c.after ?? ""}${c.before ? ` (was: ${c.before})` : ""}`),
    ),
    subject: loc.after,
  });
}

// ---- hiring --------------------------------------------------------------------------------------------

function hiring(r: Rules, jobs: Change[]): void {
  const counts = jobs.find((c) => c.counts)?.counts;
  const addedJobs = jobs.filter((c) => c.kind === "job_added");
  const removedJobs = jobs.filter((c) => c.kind === "job_removed");
  const src = jobs[0];
  const conf = src.source === "jobs" && r.ctx.pageKind !== "careers" ? 0.9 : 0.8;
  const confReason =
    src.source === "jobs" && r.ctx.pageKind !== "careers"
      ? "open roles from the job board"
      : "open roles listed on the careers page";
  if (counts) {
    const { before, after } = counts;
    const diff = after - before;
    const ratio = before > 0 ? diff / before : diff > 0 ? Number.POSITIVE_INFINITY : 0;
    const abs = Math.abs(diff);
    let severity: Severity | null = null;
    if ((Math.abs(ratio) >= 0.5 && abs >= 3) || (before === 0 && after >= 3)) severity = "high";
    else if (Math.abs(ratio) >= 0.2 && abs >= 2) severity = "medium";
    if (severity) {
      const up = diff > 0;
      const change = before > 0 ? ` (${pct(ratio)})` : "";
      const list = (up ? addedJobs : removedJobs).map((c) => c.excerpt);
      push(r, {
        key: "hiring:volume",
        supersedes: "hiring:volume",
        reverts: "hiring:volume",
        value: { before: String(before), after: String(after) },
        category: "hiring",
        type: up ? "hiring_surge" : "hiring_slowdown",
        severity,
        severity_reasons: [
          `open roles ${up ? "rose" : "fell"} from ${before} to ${after}${change} (${severity === "high" ? "≥ 50%" : "≥ 20%"})`,
        ],
        confidence: conf,
        confidence_reasons: [confReason],
        title: `${r.name} ${up ? "grows" : "cuts"} open roles from ${before} to ${after}${change}`,
        summary: `${r.name} lists ${after} open roles, ${up ? "up" : "down"} from ${before}${change}. ${up ? "New" : "Closed"}: ${list.slice(0, 6).join("; ")}${list.length > 6 ? ` and ${list.length - 6} more` : ""} (${src.url}).`,
        evidence: [
          evidence(
            r,
            src,
            `Open roles: ${before} → ${after}. ${up ? "New" : "Closed"}: ${list.slice(0, 10).join("; ")}`,
          ),
        ],
      });
    }
  }
  for (const c of addedJobs) {
    const t = c.subject;
    const role = findRole(t);
    if (!role) continue;
    const exec = role.level !== "leadership";
    push(r, {
      key: `hiring:role:${slug(t)}`,
      category: "hiring",
      type: "key_role_opening",
      severity: exec ? "high" : "medium",
      severity_reasons: [exec ? `an executive role opens: ${t}` : `a leadership role opens: ${t}`],
      confidence: conf,
      confidence_reasons: [confReason],
      title: `${r.name} is hiring a ${clip(t, 120)}${c.location ? ` (${c.location})` : ""}`,
      summary: `${r.name} opened a ${t} role${c.department ? ` in ${c.department}` : ""}${c.location ? `, ${c.location}` : ""} (${c.link ?? c.url}).`,
      evidence: [evidence(r, c, `New role: ${c.excerpt}`, c.link ?? c.url)],
      subject: t,
    });
  }
  // Locations never seen before on this source (needs the previous snapshot).
  const prevJobs = r.ctx.previous?.jobs;
  if (prevJobs) {
    const known = new Set(prevJobs.map((j) => (j.location ?? "").toLowerCase().trim()));
    const fresh = new Map<string, Change[]>();
    for (const c of addedJobs) {
      const loc = c.location?.trim();
      if (!loc || /^remote\b/i.test(loc) || known.has(loc.toLowerCase())) continue;
      fresh.set(loc, [...(fresh.get(loc) ?? []), c]);
    }
    for (const [loc, cs] of fresh) {
      push(r, {
        key: `hiring:location:${slug(loc)}`,
        category: "hiring",
        type: "new_location",
        severity: "medium",
        severity_reasons: [`a new hiring location: ${loc}`],
        confidence: conf,
        confidence_reasons: [confReason, "no open role there in the previous version"],
        title: `${r.name} starts hiring in ${loc} (${cs.length} ${cs.length === 1 ? "role" : "roles"})`,
        summary: `${r.name} lists roles in ${loc} for the first time: ${cs
          .map((c) => c.subject)
          .slice(0, 6)
          .join("; ")} (${src.url}).`,
        evidence: cs.slice(0, 5).map((c) => evidence(r, c, `New role: ${c.excerpt}`, c.link ?? c.url)),
        subject: loc,
      });
    }
  }
}

// ---- text on pages -------------------------------------------------------------------------------------

const LEGAL_PAGES = new Set(["legal", "terms", "privacy", "policy", "dpa", "subprocessors"]);

function legalPage(r: Rules, cs: Change[]): void {
  const text = cs.filter((c) => c.kind.startsWith("text_") || c.kind === "list_changed");
  const n = text.reduce((s, c) => s + changedWords(c).length, 0);
  if (n < 3) return;
  const doc = r.ctx.pageTitle ?? pathOf(cs[0].url);
  const day = r.ctx.observedAt.slice(0, 10);
  push(r, {
    key: `legal_security:policy_change:${pathKey(cs[0].url)}:${day}`,
    category: "legal_security",
    type: "policy_change",
    severity: "low",
    severity_reasons: ["terms/privacy edits"],
    confidence: 0.9,
    confidence_reasons: [`text compared with the previous version of the ${pageWord(r.ctx.pageKind)}`],
    title: `${r.name} updates ${clip(doc, 120)} (${text.length} ${text.length === 1 ? "change" : "changes"})`,
    summary: `${r.name} edited ${q(doc)} (${cs[0].url}): ${text
      .map((c) => clip(c.excerpt, 160))
      .slice(0, 3)
      .join(" · ")}`,
    evidence: text.slice(0, 5).map((c) => evidence(r, c, changeText(c))),
    subject: doc,
  });
}

/** Added text anywhere that names a certification not named before on the page, or a security notice. */

function certifications(r: Rules, cs: Change[]): Set<Change> {
  const used = new Set<Change>();
  const beforeText = cs.map((c) => c.before ?? "").join(" ");
  for (const c of cs) {
    if (!c.after || !["text_added", "text_changed", "list_changed"].includes(c.kind)) continue;
    // A notice added to the security / trust page: an incident.
    const notice = c.kind === "text_added" ? INCIDENT.exec(c.after) : null;
    if (notice && /^(security|trust|status)$/.test(r.ctx.pageKind) && !INCIDENT.test(c.before ?? "")) {
      used.add(c);
      push(r, {
        key: `legal_security:security_incident:${slug(clip(c.after, 60))}`,
        category: "legal_security",
        type: "security_incident",
        severity: "high",
        severity_reasons: [`an incident or breach notice: "${notice[1]}"`],
        confidence: 0.8,
        confidence_reasons: [`notice newly on the ${pageWord(r.ctx.pageKind)}`],
        title: `${r.name} posts a security notice: ${q(clip(c.after, 140))}`,
        summary: `${r.name}'s ${pageWord(r.ctx.pageKind)} now says ${q(clip(c.after, 300))} (${c.url}).`,
        evidence: [evidence(r, c, changeText(c))],
        subject: notice[1],
      });
      continue;
    }
    const addedText =
      c.kind === "text_added"
        ? c.after
        : c.diff
          ? c.diff
              .filter((p) => p.op === "+")
              .map((p) => p.text)
              .join(" ")
          : (c.added ?? []).join(" ");
    for (const cert of certificationsIn(addedText)) {
      if (certificationsIn(beforeText).includes(cert) || certificationsIn(c.before ?? "").includes(cert))
        continue;
      used.add(c);
      push(r, {
        key: `legal_security:certification:${slug(cert)}`,
        category: "legal_security",
        type: "certification",
        severity: "medium",
        severity_reasons: [`a certification: ${cert}`],
        confidence: 0.8,
        confidence_reasons: [`${cert} newly named on the ${pageWord(r.ctx.pageKind)}`],
        title: `${r.name} lists ${cert} certification`,
        summary: `${r.name}'s ${pageWord(r.ctx.pageKind)} now names ${cert}: ${q(addedText)} (${c.url}).`,
        evidence: [evidence(r, c, changeText(c))],
        subject: cert,
      });
    }
  }
  return used;
}

const PEOPLE_PAGES = new Set(["about", "company", "team", "leadership", "press", "news", "newsroom"]);

/** People added to or gone from a leadership list (about/team pages): a leadership change. */
function people(r: Rules, cs: Change[]): Set<Change> {
  const used = new Set<Change>();
  for (const c of cs) {
    const sectionSays = /leadership|management|executive|our team|founders|board/i.test(
      c.section ?? c.subject ?? "",
    );
    if (!PEOPLE_PAGES.has(r.ctx.pageKind) && !sectionSays) continue;
    const lines: { text: string; gone: boolean }[] = [];
    if (c.kind === "text_added" && c.after) lines.push({ text: c.after, gone: false });
    if (c.kind === "text_removed" && c.before) lines.push({ text: c.before, gone: true });
    if (c.kind === "list_changed") {
      for (const x of c.added ?? []) lines.push({ text: x, gone: false });
      for (const x of c.removed ?? []) lines.push({ text: x, gone: true });
    }
    for (const l of lines) {
      if (l.text.length > 200) continue;
      const role = findRole(l.text);
      if (!role) continue;
      const person = l.text.split(/\s*(?::|,|\s[–—-]\s|\|)\s*/)[0]?.trim() ?? "";
      const who = person && !findRole(person) ? person : "";
      const roleName = role.name;
      const cLevel = role.level === "c_level";
      used.add(c);
      push(r, {
        key: `company:leadership_change:${slug(roleName)}:${slug(who || l.text)}`,
        category: "company",
        type: "leadership_change",
        severity: cLevel ? "high" : "medium",
        severity_reasons: [cLevel ? `C-level change: ${roleName}` : `leadership change: ${roleName}`],
        confidence: 0.75,
        confidence_reasons: [
          `person ${l.gone ? "no longer" : "newly"} listed with a leadership title on the ${pageWord(r.ctx.pageKind)}`,
        ],
        title: l.gone
          ? `${r.name} no longer lists ${who || "its"} ${who ? `as ${roleName}` : roleName}`
          : `${r.name} names ${who ? `${who} ` : "a new "}${roleName}`,
        summary: `${r.name}'s ${pageWord(r.ctx.pageKind)} ${l.gone ? "no longer lists" : "now lists"} ${q(l.text)} (${c.url}).`,
        evidence: [evidence(r, c, `${l.gone ? "Removed" : "Added"}: ${l.text}`)],
        subject: roleName,
      });
    }
  }
  return used;
}

/** A facts line about offices or headquarters ("Offices | Austin, London") that gains a place. */
function offices(r: Rules, cs: Change[]): Set<Change> {
  const used = new Set<Change>();
  const LINE = /^(offices?|locations?|headquarters|hq|head office)\s*[|:]\s*(.+)$/i;
  for (const c of cs) {
    const adds = c.kind === "list_changed" ? (c.added ?? []) : c.after ? [c.after] : [];
    const rems = c.kind === "list_changed" ? (c.removed ?? []) : c.before ? [c.before] : [];
    for (const a of adds) {
      const m = LINE.exec(a.trim());
      if (!m) continue;
      const label = m[1].toLowerCase();
      const was = rems.map((x) => LINE.exec(x.trim())).find((x) => x && x[1].toLowerCase() === label);
      const split = (v: string) =>
        v
          .split(/\s*(?:,|;|·| and )\s*/)
          .map((x) => x.trim())
          .filter(Boolean);
      const hq = /^(headquarters|hq|head office)$/.test(label);
      const before = was ? split(was[2]) : [];
      const fresh = hq
        ? [m[2].trim()].filter((x) => !was || x !== was[2].trim())
        : split(m[2]).filter((x) => !before.some((b) => b.toLowerCase() === x.toLowerCase()));
      for (const place of fresh) {
        used.add(c);
        push(r, {
          key: `company:office_opening:${slug(place)}`,
          category: "company",
          type: "office_opening",
          severity: "medium",
          severity_reasons: [hq ? `headquarters now ${place}` : `a new office: ${place}`],
          confidence: 0.8,
          confidence_reasons: [`"${m[1]}" line on the ${pageWord(r.ctx.pageKind)}`],
          title: hq
            ? `${r.name} moves its headquarters to ${place}${was ? ` (was ${was[2].trim()})` : ""}`
            : `${r.name} opens an office in ${place}`,
          summary: `${r.name}'s ${pageWord(r.ctx.pageKind)} now says ${q(a)}${was ? `, previously ${q(was[0])}` : ""} (${c.url}).`,
          evidence: [evidence(r, c, `${a}${was ? ` (was: ${was[0]})` : ""}`)],
          subject: place,
        });
      }
    }
  }
  return used;
}

/** Other copy on key pages (home, pricing, product): low, and only past a size that is not a typo fix. */
function copyEdits(r: Rules, cs: Change[], planNames: string[], planChanged = false): void {
  if (!KEY_PAGES.has(r.ctx.pageKind)) return;
  // A plan card's text is the plan: its structured changes say what changed.
  const names = planNames.map((n) => n.toLowerCase()).filter(Boolean);
  const isPlanCard = (c: Change) =>
    names.some((n) =>
      [c.before, c.after, c.subject].some((t) => (t ?? "").toLowerCase().startsWith(`${n}:`)),
    );
  // So is a pricing table (cells naming two plans or more) when the plans changed: a column dropped or a
  // price moved rewrites every row, and the plan changes already say what changed.
  const isPlanTable = (c: Change) => {
    if (!planChanged) return false;
    const cells = new Set(
      [c.before, c.after, ...(c.added ?? []), ...(c.removed ?? [])]
        .join("\n")
        .toLowerCase()
        .split(/\s*[|\n;]\s*/),
    );
    return names.filter((n) => cells.has(n)).length >= 2;
  };
  const big = cs.filter((c) => {
    if (isPlanCard(c) || isPlanTable(c)) return false;
    const n = changedWords(c).length;
    if (c.kind === "text_added" || c.kind === "text_removed") return n >= 8;
    return n >= 5;
  });
  if (!big.length) return;
  const first = big[0];
  push(r, {
    key: `marketing:copy:${pathKey(first.url)}:${slug(big.map((c) => c.excerpt).join(" ")).slice(0, 40)}`,
    category: "marketing",
    type: "messaging_change",
    severity: "low",
    severity_reasons: ["other copy"],
    confidence: 0.7,
    confidence_reasons: [`text compared with the previous version of the ${pageWord(r.ctx.pageKind)}`],
    title: `${r.name} rewrites copy on its ${pageWord(r.ctx.pageKind)}${first.section ? ` (${clip(first.section, 60)})` : ""}`,
    summary: `${r.name} changed text on its ${pageWord(r.ctx.pageKind)} (${first.url}): ${big
      .map((c) => clip(c.excerpt, 160))
      .slice(0, 3)
      .join(" · ")}`,
    evidence: big.slice(0, 5).map((c) => evidence(r, c, changeText(c))),
  });
}

// ---- entry point ---------------------------------------------------------------------------------------

/** Drafts for the changes of one source in one cycle. Noise gives nothing: changes made of masked values
 * only, cosmetic edits, and small copy edits outside the key pages. */
export function classify(changes: Change[], ctx: ClassifyContext): SignalDraft[] {
  const r: Rules = { ctx, name: ctx.competitor.name, out: [] };
  const real = changes.filter((c) => {
    if (c.kind === "feed_item_added" || c.kind.startsWith("plan_") || c.kind.startsWith("job_")) return true;
    return words(`${c.before ?? ""} ${c.after ?? ""} ${c.subject}`).length > 0;
  });
  const skipNames = new Set([
    ...renames(real, "feature_added", "feature_removed"),
    ...renames(real, "integration_added", "integration_removed"),
  ]);
  const jobs: Change[] = [];
  const addressFields: Change[] = [];
  const metas = real.filter((c) => c.kind === "meta_changed");
  const heroChange = real.find((c) => c.kind === "hero_changed");
  const rest: Change[] = [];
  // Bulk edits of one version (a redesigned feature grid or navigation) are one signal each.
  const featAdds = real.filter((c) => c.kind === "feature_added" && !skipNames.has(c));
  const featRems = real.filter((c) => c.kind === "feature_removed" && !skipNames.has(c));
  if (featAdds.length >= BULK || featRems.length >= BULK) {
    featuresBulk(r, featAdds, featRems);
    for (const c of [...featAdds, ...featRems]) skipNames.add(c);
  }
  const minorPages = real.filter(
    (c) => (c.kind === "page_added" || c.kind === "page_removed") && pageLink(c)?.major === false,
  );
  if (minorPages.length >= BULK - 1) {
    navigationBulk(r, minorPages);
    for (const c of minorPages) skipNames.add(c);
  }
  for (const c of real) {
    if (skipNames.has(c)) continue;
    switch (c.kind) {
      case "plan_price_changed":
        planPrice(r, c);
        break;
      case "plan_added":
      case "plan_removed":
        planPresence(r, c);
        break;
      case "plan_features_changed":
        planFeatures(r, c, real);
        break;
      case "feature_added":
      case "feature_removed":
        feature(r, c);
        break;
      case "integration_added":
      case "integration_removed":
        integration(r, c);
        break;
      case "job_added":
      case "job_removed":
        jobs.push(c);
        break;
      case "page_added":
      case "page_removed":
        page(r, c);
        break;
      case "feed_item_added":
        announcement(r, c, c.subject, c.context ?? "", c.link);
        break;
      case "hero_changed":
        hero(
          r,
          c,
          heroChange ? metas.filter((m) => m.subject === "title" || m.subject === "meta:description") : [],
        );
        break;
      case "meta_changed":
        if (/canonical|og:url/.test(c.subject)) domain(r, c);
        else if (!heroChange) meta(r, c);
        break;
      case "field_changed":
        if (/address\./.test(c.subject)) addressFields.push(c);
        else if (/(^|\.)(url|final_url)$/i.test(c.subject)) domain(r, c);
        break;
      default:
        rest.push(c);
    }
  }
  if (ctx.pageKind === "pricing") {
    // When plans' prices changed, amounts in the text (yearly totals, savings) follow from them: left to the
    // plan changes.
    const planPriced = real.some((c) => c.kind === "plan_price_changed");
    const covered = new Set<number>();
    for (const c of real)
      if (c.kind.startsWith("plan_"))
        for (const v of [c.price?.before?.price, c.price?.after?.price])
          if (typeof v === "number") covered.add(v).add(v * 12);
    const priced = [...rest, ...metas].filter((c) =>
      planPriced
        ? c.before !== null && c.after !== null && amounts(`${c.before} ${c.after}`).length > 0
        : priceText(r, c, covered),
    );
    for (const c of priced) {
      const i = rest.indexOf(c);
      if (i >= 0) rest.splice(i, 1);
    }
  }
  if (jobs.length) hiring(r, jobs);
  if (addressFields.length) address(r, addressFields);
  if (rest.length) {
    const kind = ctx.pageKind;
    if (LEGAL_PAGES.has(kind)) legalPage(r, rest);
    else {
      const used = new Set<Change>([...certifications(r, rest)]);
      if (NEWS_PAGES.has(kind))
        for (const c of entries(
          r,
          rest.filter((x) => !used.has(x)),
        ))
          used.add(c);
      for (const c of people(
        r,
        rest.filter((x) => !used.has(x)),
      ))
        used.add(c);
      for (const c of offices(
        r,
        rest.filter((x) => !used.has(x)),
      ))
        used.add(c);
      const planNames = [
        ...(ctx.previous?.plans ?? []).map((p) => p.name),
        ...(ctx.snapshot?.plans ?? []).map((p) => p.name),
        ...real.filter((c) => c.kind.startsWith("plan_")).map((c) => c.subject),
      ];
      copyEdits(
        r,
        rest.filter((c) => !used.has(c)),
        planNames,
        real.some((c) => c.kind.startsWith("plan_")),
      );
    }
  }
  // One draft per key (the same event named twice in one version): the strongest first, evidence merged.
  const byKey = new Map<string, SignalDraft>();
  for (const d of r.out) {
    const have = byKey.get(d.key);
    if (!have) {
      byKey.set(d.key, d);
      continue;
    }
    const [keep, other] = severityRank(d.severity) > severityRank(have.severity) ? [d, have] : [have, d];
    keep.evidence = [...keep.evidence, ...other.evidence];
    keep.confidence = round2(Math.max(keep.confidence, other.confidence));
    byKey.set(d.key, keep);
  }
  return [...byKey.values()];
}
