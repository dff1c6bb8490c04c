// Product rules: features and integrations added or removed, and bulk feature-grid edits.
import type { Change } from "../compare/types.ts";
import { similarity } from "../compare/words.ts";
import { launchSubject } from "./news.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import { clip, cosmetic, pageWord, pathKey, q, slug } from "./wording.ts";

/** Added and removed names that are one renamed thing ("Audit log" → "Audit logs"): neither is reported. */
export function renames(changes: Change[], add: Change["kind"], remove: Change["kind"]): Set<Change> {
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

export const feature = rule(
  {
    id: "feature",
    family: "product",
    reads: ["feature_added", "feature_removed"],
    gives: { product: ["feature_launch", "feature_removed"] },
    severity: "launch: high on the home or pricing page (flagship), else medium; removal: high",
    when: "A feature is added to or removed from a page's feature list (a renamed feature, similar added and removed, gives nothing).",
  },
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
  },
);

export const integration = rule(
  {
    id: "integration",
    family: "product",
    reads: ["integration_added", "integration_removed"],
    gives: { product: ["integration_added", "integration_removed"] },
    severity: "medium",
    when: "An integration is added to or removed from the integrations list (a renamed one gives nothing).",
  },
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
  },
);

/** Bulk changes of one version (a redesign) are one signal, not one per item. */
export const BULK = 5;

export const featuresBulk = rule(
  {
    id: "featuresBulk",
    family: "product",
    reads: ["feature_added", "feature_removed"],
    gives: { product: ["feature_launch", "feature_removed"], marketing: ["messaging_change"] },
    severity: "as one feature; a rewritten grid: low",
    when: "Five or more features added (or removed) in one version are one signal listing them; four or more each way are a rewritten feature grid.",
  },
  function featuresBulk(r: Rules, added: Change[], removed: Change[]): void {
    const where = pageWord(r.ctx.pageKind);
    const list = (xs: Change[]) => xs.map((c) => c.subject);
    if (added.length >= BULK - 1 && removed.length >= BULK - 1) {
      push(r, {
        key: `marketing:features:${pathKey(added[0].url)}:${slug(list(added).join(" ")).slice(0, 50)}`,
        category: "marketing",
        type: "messaging_change",
        severity: "low",
        severity_reasons: [
          `the feature list was rewritten (${added.length} added, ${removed.length} removed)`,
        ],
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
  },
);
