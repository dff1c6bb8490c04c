// compare(prev, next, history) → Change[]: structured diffs where the snapshot has structure (plans and prices,
// features, integrations, jobs, nav pages, feed items, JSON-LD and meta fields), a block-level line diff and
// word diffs inside changed blocks for the rest. The rotation rule: a block, hero or meta value that this
// source already showed in its history is not a change (rotating testimonials, logo walls, A/B headlines).
import { diffArrays } from "diff";
import { formatAmount } from "../../domain/money.ts";
import { blockLine, displayOf, heroOf, heroText, membersOf, sectionOf, slotOf } from "./blocks.ts";
import { serialise } from "./normalise.ts";
import { Seen, seenKey } from "./seen.ts";
import type {
  Change,
  DiffPart,
  PriceValue,
  SnapBlock,
  SnapJob,
  SnapPlan,
  Snapshot,
  SnapshotKind,
} from "./types.ts";
import { around, excerptParts, markParts, similarity, tokens, wordDiff } from "./words.ts";

/** `$59 per seat/month`, `€0 (free)`, `custom pricing`; a price billed only yearly as the page states it,
 * `$38,000 a year`. Prices are monthly (docs/decisions.md); `period` is billing. */
export function formatPrice(p: PriceValue): string {
  if (p.price === null || p.price === undefined) return p.custom ? "custom pricing" : "no price stated";
  if (p.starting) return `from ${formatPrice({ ...p, starting: false })}`;
  if (p.period === "year" && typeof p.amount === "number")
    return `${formatAmount(p.amount, p.currency)}${p.unit ? ` per ${p.unit}` : ""} a year`;
  const amount = formatAmount(p.price, p.currency);
  if (p.period === "one_time") return `${amount}${p.unit ? ` per ${p.unit}` : ""} one-time`;
  const base = `${amount}${p.unit ? ` per ${p.unit}` : ""}/month`;
  return p.period === "year" ? `${base}, billed yearly` : base;
}

function priceOf(p: SnapPlan): PriceValue {
  const v: PriceValue = { price: p.price };
  if (p.currency) v.currency = p.currency;
  if (p.period) v.period = p.period;
  if (p.period === "year" && typeof p.amount === "number") v.amount = p.amount;
  if (p.unit) v.unit = p.unit;
  if (p.custom) v.custom = true;
  if (p.starting) v.starting = true;
  return v;
}

/** The yearly-billed alternative of a plan as a price (a monthly figure, billed yearly). */
function annualOf(p: SnapPlan): PriceValue | null {
  if (!p.annual) return null;
  const v: PriceValue = { price: p.annual.price, period: "year" };
  if (p.currency) v.currency = p.currency;
  if (p.unit) v.unit = p.unit;
  return v;
}

function marked(before: string, after: string): { excerpt: string; diff: DiffPart[] } {
  const diff = excerptParts(wordDiff(before, after));
  return { excerpt: markParts(diff), diff };
}

function firstChangeAt(parts: DiffPart[]): number {
  let at = 0;
  for (const p of parts) {
    if (p.op === "+") return at;
    if (p.op !== "-") at += p.text.length;
  }
  return at;
}

const keyOf = (s: string) => s.trim().toLowerCase();

/** Keys made unique by numbering repeats (two plans or jobs of the same name). */
function keyed<T>(xs: T[] | undefined, key: (x: T) => string): Map<string, T> {
  const m = new Map<string, T>();
  for (const x of xs ?? []) {
    const k = key(x);
    let n = 1;
    while (m.has(n === 1 ? k : `${k}#${n}`)) n++;
    m.set(n === 1 ? k : `${k}#${n}`, x);
  }
  return m;
}

interface Ctx {
  source: SnapshotKind;
  url: string;
  out: Change[];
}

function push(ctx: Ctx, c: Omit<Change, "source" | "url">): void {
  ctx.out.push({ source: ctx.source, url: ctx.url, ...c });
}

function comparePlans(ctx: Ctx, prev: SnapPlan[] | undefined, next: SnapPlan[] | undefined): void {
  const a = keyed(prev, (p) => keyOf(p.name));
  const b = keyed(next, (p) => keyOf(p.name));
  for (const [k, p] of b) {
    const was = a.get(k);
    if (!was) {
      const price = formatPrice(priceOf(p));
      const feats = p.features.length ? ` — ${p.features.slice(0, 6).join(", ")}` : "";
      push(ctx, {
        kind: "plan_added",
        subject: p.name,
        before: null,
        after: `${p.name}: ${price}`,
        excerpt: `${p.name}: ${price}${feats}`,
        price: { after: priceOf(p) },
        added: p.features,
      });
      continue;
    }
    const pb = priceOf(was);
    const pa = priceOf(p);
    if (serialise(pb) !== serialise(pa)) {
      const before = formatPrice(pb);
      const after = formatPrice(pa);
      const m = marked(before, after);
      const delta =
        typeof pb.price === "number" && typeof pa.price === "number" && pb.price > 0
          ? Math.round(((pa.price - pb.price) / pb.price) * 10000) / 10000
          : undefined;
      push(ctx, {
        kind: "plan_price_changed",
        subject: p.name,
        before,
        after,
        excerpt: `${p.name}: ${m.excerpt}`,
        diff: [{ op: "=", text: `${p.name}: ` }, ...m.diff],
        price: delta === undefined ? { before: pb, after: pa } : { before: pb, after: pa, delta },
      });
    } else {
      // the same plan billed yearly (a monthly/annual toggle) changed on its own: compared with its
      // yearly-billed price, never with the monthly one
      const yb = annualOf(was);
      const ya = annualOf(p);
      if (yb && ya && yb.price !== ya.price && typeof yb.price === "number" && typeof ya.price === "number") {
        const subject = `${p.name} (billed yearly)`;
        const m = marked(formatPrice(yb), formatPrice(ya));
        push(ctx, {
          kind: "plan_price_changed",
          subject,
          before: formatPrice(yb),
          after: formatPrice(ya),
          excerpt: `${subject}: ${m.excerpt}`,
          diff: [{ op: "=", text: `${subject}: ` }, ...m.diff],
          price: {
            before: yb,
            after: ya,
            ...(yb.price > 0
              ? { delta: Math.round(((ya.price - yb.price) / yb.price) * 10000) / 10000 }
              : {}),
          },
        });
      }
    }
    const fb = new Set(was.features.map(keyOf));
    const fa = new Set(p.features.map(keyOf));
    const added = p.features.filter((f) => !fb.has(keyOf(f)));
    const removed = was.features.filter((f) => !fa.has(keyOf(f)));
    if (added.length || removed.length) {
      push(ctx, {
        kind: "plan_features_changed",
        subject: p.name,
        before: was.features.join("; "),
        after: p.features.join("; "),
        excerpt: `${p.name}: ${[...removed.map((f) => `[-${f}]`), ...added.map((f) => `[+${f}]`)].join(" ")}`,
        added,
        removed,
      });
    }
  }
  for (const [k, p] of a) {
    if (b.has(k)) continue;
    push(ctx, {
      kind: "plan_removed",
      subject: p.name,
      before: `${p.name}: ${formatPrice(priceOf(p))}`,
      after: null,
      excerpt: `${p.name}: ${formatPrice(priceOf(p))}`,
      price: { before: priceOf(p) },
      removed: p.features,
    });
  }
}

function compareSet(
  ctx: Ctx,
  prev: string[] | undefined,
  next: string[] | undefined,
  added: "feature_added" | "integration_added",
  removed: "feature_removed" | "integration_removed",
): void {
  const a = new Set((prev ?? []).map(keyOf));
  const b = new Set((next ?? []).map(keyOf));
  for (const x of next ?? [])
    if (!a.has(keyOf(x))) push(ctx, { kind: added, subject: x, before: null, after: x, excerpt: x });
  for (const x of prev ?? [])
    if (!b.has(keyOf(x))) push(ctx, { kind: removed, subject: x, before: x, after: null, excerpt: x });
}

function jobLine(j: SnapJob): string {
  const where = [j.department, j.location].filter(Boolean).join(", ");
  return where ? `${j.title} (${where})` : j.title;
}

function compareJobs(ctx: Ctx, prev: SnapJob[] | undefined, next: SnapJob[] | undefined): void {
  const key = (j: SnapJob) => `${keyOf(j.title)}|${keyOf(j.location ?? "")}`;
  const a = keyed(prev, key);
  const b = keyed(next, key);
  const counts = { before: prev?.length ?? 0, after: next?.length ?? 0 };
  const job = (kind: "job_added" | "job_removed", j: SnapJob): Omit<Change, "source" | "url"> => {
    const c: Omit<Change, "source" | "url"> = {
      kind,
      subject: j.title,
      before: kind === "job_removed" ? jobLine(j) : null,
      after: kind === "job_added" ? jobLine(j) : null,
      excerpt: jobLine(j),
      counts,
    };
    if (j.department) c.department = j.department;
    if (j.location) c.location = j.location;
    if (j.url) c.link = j.url;
    return c;
  };
  for (const [k, j] of b) if (!a.has(k)) push(ctx, job("job_added", j));
  for (const [k, j] of a) if (!b.has(k)) push(ctx, job("job_removed", j));
}

function comparePages(ctx: Ctx, prev: Snapshot, next: Snapshot): void {
  const a = new Map((prev.pages ?? []).map((l) => [l.url, l.text]));
  const b = new Map((next.pages ?? []).map((l) => [l.url, l.text]));
  for (const [url, text] of b)
    if (!a.has(url))
      push(ctx, {
        kind: "page_added",
        subject: text || url,
        before: null,
        after: url,
        excerpt: text ? `${text} (${url})` : url,
        link: url,
      });
  for (const [url, text] of a)
    if (!b.has(url))
      push(ctx, {
        kind: "page_removed",
        subject: text || url,
        before: url,
        after: null,
        excerpt: text ? `${text} (${url})` : url,
        link: url,
      });
}

function compareItems(ctx: Ctx, prev: Snapshot, next: Snapshot, history: Seen): void {
  const had = new Set<string>();
  for (const i of prev.items ?? []) {
    had.add(`id:${i.id}`);
    if (i.url) had.add(`url:${i.url}`);
  }
  const seen = (k: string) => had.has(k) || history.has(seenKey.item(k));
  for (const i of next.items ?? []) {
    if (seen(`id:${i.id}`) || (i.url && seen(`url:${i.url}`))) continue;
    const c: Omit<Change, "source" | "url"> = {
      kind: "feed_item_added",
      subject: i.title,
      before: null,
      after: i.title,
      excerpt: i.summary ? `${i.title} — ${around(i.summary, 0, 200)}` : i.title,
    };
    if (i.summary) c.context = i.summary;
    if (i.url) c.link = i.url;
    if (i.published) c.published = i.published;
    push(ctx, c);
  }
}

function compareFields(ctx: Ctx, prev: Snapshot, next: Snapshot): void {
  const a = prev.fields ?? {};
  const b = next.fields ?? {};
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    const m = x !== undefined && y !== undefined ? marked(x, y) : undefined;
    push(ctx, {
      kind: "field_changed",
      subject: k,
      before: x ?? null,
      after: y ?? null,
      excerpt: `${k}: ${m ? m.excerpt : x === undefined ? `[+${y}]` : `[-${x}]`}`,
      ...(m ? { diff: m.diff } : {}),
    });
  }
}

/** Title and meta tags; the rotation rule applies (A/B titles). Duplicate before→after pairs (og:title
 * repeating the title) are reported once. */
function compareMeta(ctx: Ctx, prev: Snapshot, next: Snapshot, history: Seen): void {
  const a: Record<string, string> = { ...(prev.meta ?? {}) };
  const b: Record<string, string> = { ...(next.meta ?? {}) };
  if (prev.title) a.title = prev.title;
  if (next.title) b.title = next.title;
  const pairs = new Set<string>();
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort((x, y) =>
    x === "title" ? -1 : y === "title" ? 1 : x < y ? -1 : x > y ? 1 : 0,
  );
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === y || y === undefined) continue;
    if (history.has(k === "title" ? seenKey.title(y) : seenKey.meta(k, y))) continue;
    const pair = `${x ?? ""}\u0000${y}`;
    if (pairs.has(pair)) continue;
    pairs.add(pair);
    const m = x !== undefined ? marked(x, y) : undefined;
    push(ctx, {
      kind: "meta_changed",
      subject: k === "title" ? "title" : `meta:${k}`,
      before: x ?? null,
      after: y,
      excerpt: m ? m.excerpt : `[+${y}]`,
      ...(m ? { diff: m.diff } : {}),
    });
  }
}

function compareHero(ctx: Ctx, prev: Snapshot, next: Snapshot, history: Seen): void {
  let ph = heroOf(prev);
  let nh = heroOf(next);
  // Picked from a set on either side: the sub-headlines are not comparable, the headlines are.
  if (ph && nh && (ph.subheadline === undefined) !== (nh.subheadline === undefined)) {
    ph = { headline: ph.headline };
    nh = { headline: nh.headline };
  }
  const x = heroText(ph);
  const y = heroText(nh);
  if (x === y || y === undefined) return;
  // Already shown as a whole, or each part already shown (headline and sub-headline rotating separately).
  if (history.has(seenKey.hero(y))) return;
  const sub = nh!.subheadline;
  const headSeen = nh!.headline === ph?.headline || history.has(seenKey.headline(nh!.headline));
  const subSeen = sub === ph?.subheadline || history.has(seenKey.subheadline(sub));
  if (headSeen && subSeen) return;
  const m = x !== undefined ? marked(x, y) : undefined;
  push(ctx, {
    kind: "hero_changed",
    subject: "hero",
    before: x ?? null,
    after: y,
    excerpt: m ? m.excerpt : `[+${y}]`,
    context: y,
    ...(m ? { diff: m.diff } : {}),
  });
}

// ---- blocks -------------------------------------------------------------------------------------------

const OPENING_QUOTE = /^["“”„«‘']/;
const QUOTE_THEN_DASH = /["”»’]\s*[—–-]\s*\S/;
const DASH_THEN_NAME = /^[—–]\s*\p{Lu}/u;

/** A testimonial: a quotation, or the attribution line under one ("— Dana Ruiz, Head of Product"). */
function isQuote(text: string): boolean {
  return OPENING_QUOTE.test(text) || QUOTE_THEN_DASH.test(text) || DASH_THEN_NAME.test(text);
}

interface Hunk {
  removed: SnapBlock[];
  added: SnapBlock[];
}

/** The hunks of the line diff, and the line of each block in them (built once per block: a page has thousands of
 * blocks, and a memo keyed by block cost more than the lines). */
function hunksOf(prev: SnapBlock[], next: SnapBlock[]): { hunks: Hunk[]; lineOf: (b: SnapBlock) => string } {
  const prevLines = prev.map(blockLine);
  const nextLines = next.map(blockLine);
  const parts = diffArrays(prevLines, nextLines);
  const lines = new Map<SnapBlock, string>();
  const lineOf = (b: SnapBlock) => lines.get(b)!;
  const hunks: Hunk[] = [];
  let cur: Hunk | null = null;
  let i = 0;
  let j = 0;
  for (const p of parts) {
    const n = p.count ?? p.value.length;
    if (!p.added && !p.removed) {
      if (cur) hunks.push(cur);
      cur = null;
      i += n;
      j += n;
      continue;
    }
    cur ??= { removed: [], added: [] };
    if (p.removed) {
      for (let k = i; k < i + n; k++) {
        cur.removed.push(prev[k]!);
        lines.set(prev[k]!, prevLines[k]!);
      }
      i += n;
    } else {
      for (let k = j; k < j + n; k++) {
        cur.added.push(next[k]!);
        lines.set(next[k]!, nextLines[k]!);
      }
      j += n;
    }
  }
  if (cur) hunks.push(cur);
  // A block that only moved (removed in one place, added in another) is not a change.
  const removedCount = new Map<string, number>();
  for (const h of hunks)
    for (const b of h.removed) removedCount.set(lineOf(b), (removedCount.get(lineOf(b)) ?? 0) + 1);
  const addedCount = new Map<string, number>();
  for (const h of hunks)
    for (const b of h.added) addedCount.set(lineOf(b), (addedCount.get(lineOf(b)) ?? 0) + 1);
  const moved = new Map<string, number>();
  for (const [l, n] of addedCount) {
    const m = Math.min(n, removedCount.get(l) ?? 0);
    if (m > 0) moved.set(l, m);
  }
  const take = (budget: Map<string, number>) => (b: SnapBlock) => {
    const l = lineOf(b);
    const left = budget.get(l) ?? 0;
    if (left > 0) {
      budget.set(l, left - 1);
      return false;
    }
    return true;
  };
  const keepRemoved = take(new Map(moved));
  const keepAdded = take(new Map(moved));
  return {
    hunks: hunks
      .map((h) => ({ removed: h.removed.filter(keepRemoved), added: h.added.filter(keepAdded) }))
      .filter((h) => h.removed.length || h.added.length),
    lineOf,
  };
}

/** Pairs the blocks of a hunk: same block type, most similar first; the rest of a type in order. */
function pairUp(h: Hunk): { pairs: [SnapBlock, SnapBlock][]; added: SnapBlock[]; removed: SnapBlock[] } {
  const cands: { r: number; a: number; s: number }[] = [];
  h.removed.forEach((r, ri) => {
    h.added.forEach((a, ai) => {
      if (r.t !== a.t) return;
      const s =
        similarity(displayOf(r), displayOf(a)) +
        (r.t === "card" && a.t === "card" && r.title === a.title ? 1 : 0);
      cands.push({ r: ri, a: ai, s });
    });
  });
  cands.sort((x, y) => y.s - x.s || x.a - y.a || x.r - y.r);
  const usedR = new Set<number>();
  const usedA = new Set<number>();
  const pairs: [number, number][] = [];
  for (const c of cands) {
    if (c.s < 0.2 || usedR.has(c.r) || usedA.has(c.a)) continue;
    usedR.add(c.r);
    usedA.add(c.a);
    pairs.push([c.r, c.a]);
  }
  // Whatever is left of one type on both sides was replaced in place (a rotating quote, a new headline).
  h.added.forEach((a, ai) => {
    if (usedA.has(ai)) return;
    const ri = h.removed.findIndex((r, k) => !usedR.has(k) && r.t === a.t);
    if (ri < 0) return;
    usedR.add(ri);
    usedA.add(ai);
    pairs.push([ri, ai]);
  });
  pairs.sort((x, y) => x[1] - y[1]);
  return {
    pairs: pairs.map(([r, a]) => [h.removed[r], h.added[a]]),
    added: h.added.filter((_, i) => !usedA.has(i)),
    removed: h.removed.filter((_, i) => !usedR.has(i)),
  };
}

function compareBlocks(ctx: Ctx, prev: Snapshot, next: Snapshot, hist: Seen, skipTexts: Set<string>): void {
  const { hunks, lineOf } = hunksOf(prev.blocks ?? [], next.blocks ?? []);
  for (const hunk of hunks) {
    const { pairs, added, removed } = pairUp(hunk);
    for (const [r, a] of pairs) {
      if (hist.has(seenKey.line(lineOf(a)))) continue; // rotation: this block showed this value before
      // One testimonial in place of another: a carousel, not a change of what the page says.
      if (r.t === "p" && a.t === "p" && isQuote(r.text) && isQuote(a.text)) continue;
      const rm = membersOf(r);
      const am = membersOf(a);
      if (rm && am) {
        const rs = new Set(rm);
        const as = new Set(am);
        const plus = am.filter((x) => !rs.has(x));
        const minus = rm.filter((x) => !as.has(x));
        const slot = slotOf(a);
        const fresh = plus.filter((x) => !hist.has(seenKey.member(slot, x)));
        // Every added member was shown here before: the set rotates (a logo wall, a quote carousel).
        if (plus.length > 0 && fresh.length === 0) continue;
        const titleOf = (b: SnapBlock) => (b.t === "card" ? b.title : b.t === "table" ? (b.head ?? "") : "");
        const titleChanged = titleOf(r) !== titleOf(a);
        if (!fresh.length && !minus.length && !titleChanged) continue;
        const titleDiff = titleChanged ? excerptParts(wordDiff(titleOf(r), titleOf(a))) : [];
        const diff: DiffPart[] = [
          ...titleDiff,
          ...minus.map((x) => ({ op: "-" as const, text: x })),
          ...fresh.map((x) => ({ op: "+" as const, text: x })),
        ];
        const sec = sectionOf(a);
        push(ctx, {
          kind: "list_changed",
          subject: a.t === "card" ? a.title || (sec ?? "") : (sec ?? ""),
          ...(sec ? { section: sec } : {}),
          before: displayOf(r),
          after: displayOf(a),
          excerpt: [
            titleDiff.length ? markParts(titleDiff) : "",
            ...minus.map((x) => `[-${x}]`),
            ...fresh.map((x) => `[+${x}]`),
          ]
            .filter(Boolean)
            .join(" "),
          context: around(displayOf(a), 0),
          diff,
          added: fresh,
          removed: minus,
        });
        continue;
      }
      const before = displayOf(r);
      const after = displayOf(a);
      if (skipTexts.has(`${before}\u0000${after}`)) continue;
      const parts = wordDiff(before, after);
      const diff = excerptParts(parts);
      const sec = a.t === "h" ? undefined : sectionOf(a);
      push(ctx, {
        kind: "text_changed",
        subject: sec ?? (a.t === "h" ? "heading" : ""),
        ...(sec ? { section: sec } : {}),
        before,
        after,
        excerpt: markParts(diff),
        context: around(after, firstChangeAt(parts)),
        diff,
      });
    }
    for (const a of added) {
      if (hist.has(seenKey.line(lineOf(a)))) continue;
      const am = membersOf(a);
      if (am) {
        const slot = slotOf(a);
        if (am.length > 0 && am.every((x) => hist.has(seenKey.member(slot, x)))) continue;
      }
      const text = displayOf(a);
      const sec = sectionOf(a);
      push(ctx, {
        kind: "text_added",
        subject: sec ?? "",
        ...(sec ? { section: sec } : {}),
        before: null,
        after: text,
        excerpt: `[+${around(text, 0)}]`,
        context: around(text, 0),
        diff: [{ op: "+", text }],
        ...(am ? { added: am } : {}),
      });
    }
    for (const r of removed) {
      const text = displayOf(r);
      const sec = sectionOf(r);
      const rm = membersOf(r);
      push(ctx, {
        kind: "text_removed",
        subject: sec ?? "",
        ...(sec ? { section: sec } : {}),
        before: text,
        after: null,
        excerpt: `[-${around(text, 0)}]`,
        context: around(text, 0),
        diff: [{ op: "-", text }],
        ...(rm ? { removed: rm } : {}),
      });
    }
  }
}

// ---- coverage -----------------------------------------------------------------------------------------

const STRUCTURED: ReadonlySet<Change["kind"]> = new Set([
  "plan_added",
  "plan_removed",
  "plan_price_changed",
  "plan_features_changed",
  "feature_added",
  "feature_removed",
  "integration_added",
  "integration_removed",
  "job_added",
  "job_removed",
  "page_added",
  "page_removed",
  "feed_item_added",
  "hero_changed",
]);

/** Kinds that repeat a structured change of the same comparison (the price in a plan card, in the meta
 * description, in the JSON-LD offer) and are dropped when they only repeat it. */
const COVERABLE: ReadonlySet<Change["kind"]> = new Set([
  "text_changed",
  "text_added",
  "text_removed",
  "list_changed",
  "meta_changed",
  "field_changed",
]);

/** The words a block change touched: its word-diff's changed parts, or the added and removed members. */
function changedWords(c: Change): string[] {
  if (c.kind === "text_added" || (c.kind === "field_changed" && c.before === null))
    return tokens(c.after ?? "");
  if (c.kind === "text_removed" || (c.kind === "field_changed" && c.after === null))
    return tokens(c.before ?? "");
  if (!c.diff) return [...tokens(c.before ?? ""), ...tokens(c.after ?? "")];
  return (c.diff ?? []).filter((p) => p.op !== "=").flatMap((p) => tokens(p.text));
}

/** A text or list change whose every changed word belongs to a structured change of the same comparison
 * (the price in a plan card, a new integration's name in a list) is that change, not another one. */
function dropCovered(changes: Change[]): Change[] {
  const covered = new Set<string>();
  for (const c of changes) {
    if (!STRUCTURED.has(c.kind)) continue;
    for (const s of [c.subject, c.before, c.after, c.excerpt, ...(c.added ?? []), ...(c.removed ?? [])])
      for (const w of tokens(s ?? "")) covered.add(w);
  }
  if (covered.size === 0) return changes;
  return changes.filter((c) => {
    if (!COVERABLE.has(c.kind)) return true;
    const words = changedWords(c);
    return words.length === 0 || !words.every((w) => covered.has(w));
  });
}

/** What materially changed between two snapshots of one source. `history` is what its earlier versions
 * showed (seen.ts; may include `prev`): values already seen there are rotation, not change. */
export function compare(prev: Snapshot, next: Snapshot, history: Seen = new Seen()): Change[] {
  const ctx: Ctx = { source: next.kind, url: next.url, out: [] };
  comparePlans(ctx, prev.plans, next.plans);
  compareSet(ctx, prev.features, next.features, "feature_added", "feature_removed");
  compareSet(ctx, prev.integrations, next.integrations, "integration_added", "integration_removed");
  compareJobs(ctx, prev.jobs, next.jobs);
  comparePages(ctx, prev, next);
  compareItems(ctx, prev, next, history);
  compareFields(ctx, prev, next);
  compareMeta(ctx, prev, next, history);
  compareHero(ctx, prev, next, history);
  // The hero's headline usually is the page's first heading too: one change, not two.
  const skipTexts = new Set<string>();
  if (prev.hero && next.hero) {
    skipTexts.add(`${prev.hero.headline}\u0000${next.hero.headline}`);
    if (prev.hero.subheadline && next.hero.subheadline)
      skipTexts.add(`${prev.hero.subheadline}\u0000${next.hero.subheadline}`);
  }
  compareBlocks(ctx, prev, next, history, skipTexts);
  return dropCovered(ctx.out);
}
