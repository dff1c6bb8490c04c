// Legal and security rules: edits of legal pages, certifications named, security notices.

import { listOf } from "../../domain/prose.ts";
import type { Change } from "../compare/types.ts";
import { certificationsIn, INCIDENT } from "./news.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import {
  changedWords,
  changeText,
  clip,
  cutExact,
  editText,
  pageName,
  pageWord,
  pathKey,
  pathOf,
  q,
  slug,
} from "./wording.ts";

export const LEGAL_PAGES = new Set(["legal", "terms", "privacy", "policy", "dpa", "subprocessors"]);

export const legalPage = rule(
  {
    id: "legalPage",
    family: "legal/security",
    reads: ["text_added", "text_removed", "text_changed", "list_changed"],
    gives: { legal_security: ["policy_change"] },
    severity: "low",
    when: "Text edits of a legal page (terms, privacy, DPA, subprocessors; ≥ 3 changed words).",
  },
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
      title: `${r.name} updates its ${clip(pageName(doc), 120)}${text.length > 1 ? ` (${text.length} edits)` : ""}`,
      summary: `${r.name}'s ${clip(pageName(doc), 120)} ${listOf(text.slice(0, 3).map((c) => editText(c)))}.`,
      evidence: text.slice(0, 5).map((c) => evidence(r, c, changeText(c))),
      subject: doc,
    });
  },

  /** Added text anywhere that names a certification not named before on the page, or a security notice. */
);

export const certifications = rule(
  {
    id: "certifications",
    family: "legal/security",
    reads: ["text_added", "text_removed", "text_changed", "list_changed"],
    gives: { legal_security: ["certification", "security_incident"] },
    severity: "certification: medium; incident: high",
    when: "A certification newly named on any page (SOC 2, ISO 27001 …); a paragraph with incident words added to a security, trust or status page.",
  },
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
          key: `legal_security:security_incident:${slug(cutExact(c.after, 60))}`,
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
  },
);
