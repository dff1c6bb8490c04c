// Company rules: the address in structured data, offices lines, and people on leadership pages.
import type { Change } from "../compare/types.ts";
import { findRole } from "./roles.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import { pageWord, q, slug } from "./wording.ts";

export const address = rule(
  {
    id: "address",
    family: "company",
    reads: ["field_changed"],
    gives: { company: ["office_opening"] },
    severity: "medium",
    when: "The company's JSON-LD address fields change.",
  },
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
  },
);

/** Pages that list a company's people. A newsroom is not one: its releases quote and name executives in
 * every issue ("said Ana Lima, COO"); what a release announces is read from its headline and lead
 * (announcements.ts, release.ts). */
export const PEOPLE_PAGES = new Set(["about", "company", "team", "leadership"]);

/** People added to or gone from a leadership list (about/team pages): a leadership change. */
export const people = rule(
  {
    id: "people",
    family: "company",
    reads: ["text_added", "text_removed", "text_changed", "list_changed"],
    gives: { company: ["leadership_change"] },
    severity: "C-level: high, else medium",
    when: "A person with a role (roles.ts) is added to or gone from an about or leadership list.",
  },
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
  },
);

/** A facts line about offices or headquarters ("Offices | Austin, London") that gains a place. */
export const offices = rule(
  {
    id: "offices",
    family: "company",
    reads: ["text_added", "text_removed", "text_changed", "list_changed"],
    gives: { company: ["office_opening"] },
    severity: "medium",
    when: 'A facts line "Offices / Headquarters: …" gains a place.',
  },
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
  },
);
