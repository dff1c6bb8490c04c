// Pricing rules: plan prices, plans added or removed, plan feature lists, amounts in a pricing page's text.
import { formatPrice } from "../compare/compare.ts";
import type { Change, SnapPlan } from "../compare/types.ts";
import { similarity } from "../compare/words.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import type { Severity } from "./types.ts";
import {
  changeText,
  clip,
  cosmetic,
  money,
  pageWord,
  pct,
  planLabel,
  q,
  slug,
  withMonthly,
} from "./wording.ts";

export const planPrice = rule(
  {
    id: "planPrice",
    family: "pricing",
    reads: ["plan_price_changed"],
    gives: { pricing: ["price_increase", "price_decrease", "free_tier_change", "packaging_change"] },
    severity: "a paid plan's price moves ≥ 10%: high, else medium; to or from 0: high; packaging: medium",
    when: "A plan's price changes: a rise or a cut, a free tier starting or ending, or the same amount with another unit, period, currency or custom pricing.",
  },
  function planPrice(r: Rules, c: Change): void {
    const b = c.price?.before;
    const a = c.price?.after;
    if (!b || !a) return;
    const plan = planLabel(c.subject);
    const key = `pricing:price:${slug(c.subject)}`;
    const ev = [evidence(r, c, `${c.subject}: ${withMonthly(b)} → ${withMonthly(a)}`)];
    const conf = r.ctx.pageKind === "pricing" ? 0.95 : 0.85;
    const confReasons = [
      r.ctx.pageKind === "pricing"
        ? "price read from the plan on the pricing page"
        : `price read from a plan on the ${pageWord(r.ctx.pageKind)}`,
    ];
    const base = {
      ...stateChange(key, formatPrice(b), formatPrice(a)),
      subject: c.subject,
      evidence: ev,
      confidence: conf,
      confidence_reasons: confReasons,
    };
    const sameShape = b.currency === a.currency && b.unit === a.unit && b.period === a.period;
    const from = sameShape ? money(b) : formatPrice(b);
    if (typeof b.price === "number" && typeof a.price === "number") {
      // a yearly-billed price is never compared with a monthly-billed one: the billing terms changed
      if (b.price === a.price || (b.period === "year") !== (a.period === "year")) {
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
        severity_reasons: [
          `${plan} is a paid plan and its price moved ${pct(delta)} (${big ? "≥" : "<"} 10%)`,
        ],
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
  },
);

const LEADING_AT = /^ at/;

export const planPresence = rule(
  {
    id: "planPresence",
    family: "pricing",
    reads: ["plan_added", "plan_removed"],
    gives: { pricing: ["plan_added", "plan_removed", "free_tier_change"] },
    severity: "high",
    when: "A plan is added or removed (a $0 plan is a free-tier change).",
  },
  function planPresence(r: Rules, c: Change): void {
    const added = c.kind === "plan_added";
    const p = (added ? c.price?.after : c.price?.before) ?? { price: null };
    const plan = planLabel(c.subject);
    const free = p.price === 0;
    const key = free ? "pricing:free_tier" : `pricing:plan:${slug(c.subject)}`;
    const feats = (added ? c.added : c.removed) ?? [];
    const featText = feats.length ? ` — ${feats.slice(0, 8).join(", ")}` : "";
    const ev = [evidence(r, c, `${added ? "" : "Removed: "}${c.subject}: ${withMonthly(p)}${featText}`)];
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
        title: added
          ? `${r.name} adds a free ${plan} (${formatPrice(p)})`
          : `${r.name} ends its free ${plan}`,
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
        : `${r.name} removes ${plan}${priced ? ` (was${priced.replace(LEADING_AT, "")})` : ""}`,
      summary: added
        ? `${r.name} lists a new ${plan}${priced}${featText} (${c.url}).`
        : `${r.name} no longer lists its ${plan}${priced ? `, previously${priced.replace(LEADING_AT, "")}` : ""} (${c.url}).`,
    });
  },
);

const NUMBER_WITH_SUFFIX = /\d[\d.,]*\s*[km]?/gi;
const SPACES = /\s+/g;

export const numberless = (s: string) =>
  s.toLowerCase().replace(NUMBER_WITH_SUFFIX, "#").replace(SPACES, " ").trim();

export const planFeatures = rule(
  {
    id: "planFeatures",
    family: "pricing",
    reads: ["plan_features_changed"],
    gives: { pricing: ["packaging_change"] },
    severity:
      "a feature moved to a dearer plan: high; limits with other numbers, features added or dropped: medium; rewordings: low",
    when: "A plan's feature list changes: a feature moves between plans, a limit's numbers change, features are added or dropped.",
  },
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
  },
);

export const MONEY = /(?:US\$|[$€£¥₹]|\b(?:USD|EUR|GBP)\s?)\s?(\d[\d,]*(?:\.\d+)?)(\s?[kK])?/g;

const COMMAS = /,/g;

export function amounts(text: string): number[] {
  return [...text.matchAll(MONEY)].map((m) => Number(m[1].replace(COMMAS, "")) * (m[2] ? 1000 : 1));
}

const DIGIT = /\d/;
const DOLLAR = /US\$|\$/;
const EURO = /€/;
const POUND = /£/;
const NUMBERS = /\d[\d,.]*/g;

/** A price in the prose of the pricing page that changed (an add-on, a price in the description): not a
 * plan's structured price, so medium at most. Amounts a plan change of the same version covers are skipped. */
export const priceText = rule(
  {
    id: "priceText",
    family: "pricing",
    reads: ["text_added", "text_removed", "text_changed", "list_changed", "meta_changed"],
    gives: { pricing: ["price_increase", "price_decrease"] },
    severity: "medium",
    when: "On a pricing page, an amount in the text (an add-on, the description) moves, unless plans' prices changed in the same version.",
  },
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
      (!gone.length && !come.length && !c.diff.some((p) => p.op !== "=" && DIGIT.test(p.text)))
    )
      return false;
    if ([...was, ...now].every((x) => covered.has(x))) return true;
    const b = was[0];
    const a = now[0];
    const up = a > b;
    const delta = b > 0 ? (a - b) / b : 0;
    const sym = DOLLAR.test(c.after) ? "$" : EURO.test(c.after) ? "€" : POUND.test(c.after) ? "£" : "";
    const fmt = (n: number) => `${sym}${n.toLocaleString("en-US", { maximumFractionDigits: 2 })}`;
    const line = c.context ?? c.after;
    const key = `pricing:price_text:${slug(c.section ?? c.subject)}:${slug(line.replace(NUMBERS, "#")).slice(0, 60)}`;
    push(r, {
      ...stateChange(key, fmt(b), fmt(a)),
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
  },
);
