// Marketing rules: the hero and the home page's title and description, and copy edits on key pages.

import { listOf } from "../../domain/prose.ts";
import type { Change } from "../compare/types.ts";
import { announcement } from "./announcements.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import {
  changedWords,
  changeText,
  clip,
  editText,
  KEY_PAGES,
  pageWord,
  pathKey,
  q,
  slug,
} from "./wording.ts";

export const hero = rule(
  {
    id: "hero",
    family: "marketing",
    reads: ["hero_changed"],
    gives: { marketing: ["messaging_change"], product: ["feature_launch"] },
    severity: "medium on the home page, else low",
    when: "The hero of a home, pricing or product page changes (≥ 2 words; the home page's title and description changes fold in); a hero announcing a launch is the launch.",
  },
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
      ...stateChange(key, c.before, c.after),
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
  },
);

export const meta = rule(
  {
    id: "meta",
    family: "marketing",
    reads: ["meta_changed"],
    gives: { marketing: ["messaging_change"] },
    severity: "low",
    when: "The home page's title or meta description changes (≥ 2 words) while its hero does not.",
  },
  function meta(r: Rules, c: Change): void {
    if (r.ctx.pageKind !== "home" || c.after === null) return;
    if (c.subject !== "title" && c.subject !== "meta:description") return;
    if (changedWords(c).length < 2) return;
    const what = c.subject === "title" ? "page title" : "meta description";
    const key = `marketing:meta:${slug(c.subject)}`;
    push(r, {
      ...stateChange(key, c.before, c.after),
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
  },
);

/** Other copy on key pages (home, pricing, product): low, and only past a size that is not a typo fix. */
export const copyEdits = rule(
  {
    id: "copyEdits",
    family: "marketing",
    reads: ["text_added", "text_removed", "text_changed", "list_changed"],
    gives: { marketing: ["messaging_change"] },
    severity: "low",
    when: "Other text on home, pricing and product pages: ≥ 5 changed words (≥ 8 for a whole new or removed block), not a plan card's text.",
  },
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
      summary: `${r.name}'s ${pageWord(r.ctx.pageKind)} ${listOf(big.slice(0, 3).map((c) => editText(c)))}.`,
      evidence: big.slice(0, 5).map((c) => evidence(r, c, changeText(c))),
    });
  },
);
