// The battlecard composer and its proposals on the demo workspace after one advance of its sites (plain data, no
// database): every line names the fact it rests on and traces to a signal or a dossier field; no filler, no two
// lines saying the same thing, no strength beside a weakness on the same topic; the period's most material moves
// are on the card; the curated cards keep every line of their people through a cycle (the engine only proposes),
// and a member's accept or dismiss decides; the card's Markdown fits two printed pages.
import { describe, expect, test } from "bun:test";
import {
  decideAcceptProposal,
  decideCardProposal,
  decideDismissProposal,
  decideEditCard,
  EDIT_MAX_LINES,
  generatedCard,
  type StoredCard,
  sameThing,
  teamOf,
} from "../../src/domain/battlecardProposals.ts";
import type { ComposedBattlecard } from "../../src/domain/battlecardTypes.ts";
import { composeBattlecard } from "../../src/engine/battlecards.ts";
import { battlecardMarkdown } from "../../src/web/battlecardExtras.tsx";
import { DEMO } from "../support/battlecard-demo.ts";
import { expectProse } from "../support/prose-check.ts";

const NOW = new Date("2026-11-21T12:00:00.000Z");
const LISTS = ["strengths", "weaknesses", "talk_tracks", "landmines", "recent_moves"] as const;
const FILLER = [
  /acknowledge it/i,
  /^Raise "/,
  /affects their evaluation of/i,
  /ask how it changes the buyer's plans/i,
  /lowers the barrier to adoption/i,
  /\(seen \d{4}-\d{2}-\d{2}\)/,
  /\d{4}-\d{2}-\d{2}T/,
];
// A fact is named: a date as people write it, an amount, or a quoted headline.
const NAMES_A_FACT = /\b\d{1,2} (?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b|[$€£]\d|"[^"]+"/;

function compose(key: keyof typeof DEMO, team = false): ComposedBattlecard {
  const d = DEMO[key];
  return composeBattlecard({
    competitorId: 1,
    competitor: d.competitor,
    signals: d.signals,
    notes: [],
    now: NOW.toISOString(),
    ...(team ? { team: teamOf(d.card as StoredCard) } : {}),
  });
}

describe("a composed card", () => {
  for (const key of Object.keys(DEMO) as (keyof typeof DEMO)[])
    test(`${key}: specific, traced, no duplicates, no contradictions`, () => {
      const c = compose(key);
      const all = LISTS.flatMap((k) => c.sections[k].map((text) => ({ k, text })));
      expect(all.length).toBeGreaterThan(6);
      // Prose a person reads: no placeholder, cut domain, doubled word, raw slug or ISO timestamp.
      expectProse([
        { where: "overview", text: c.sections.overview ?? "" },
        ...all.map(({ k, text }) => ({ where: k, text })),
      ]);
      for (const { k, text } of all) {
        for (const f of FILLER) expect(text).not.toMatch(f);
        if (k === "talk_tracks" || k === "landmines") {
          expect(text).toMatch(NAMES_A_FACT);
          // …and what to do with it.
          expect(text).toMatch(/\b(?:ask|price|compare|expect|find out|get|bring|show|offer|agree)\b/i);
        }
        // Every line traces to a signal or a dossier field.
        const line = c.lines.find((l) => l.section === k && l.text === text);
        expect(line?.signal_id !== undefined || line?.dossier_field !== undefined).toBe(true);
      }
      for (let i = 0; i < all.length; i++)
        for (let j = i + 1; j < all.length; j++) {
          expect(all[i].text).not.toBe(all[j].text);
          if (all[i].k === all[j].k) expect(sameThing(all[i].text, all[j].text)).toBe(false);
        }
      // No advice repeated: the part after the fact differs on every talk track and landmine.
      const advice = c.sections.talk_tracks.concat(c.sections.landmines).map((l) =>
        l
          .slice(l.indexOf(":") + 1)
          .replace(/\$[\d,.]+|\d+ \w+ \d{4}/g, "")
          .trim(),
      );
      expect(new Set(advice).size).toBe(advice.length);
      // No fact is both a strength and a weakness.
      const topics = (k: "strengths" | "weaknesses") =>
        new Set(c.lines.filter((l) => l.section === k).map((l) => l.signal_id ?? l.dossier_field));
      for (const t of topics("strengths"))
        if (typeof t === "number") expect(topics("weaknesses").has(t)).toBe(false);
    });

  test("the newer fact wins: a free plan that ended is not a strength; the newer Series B amount stays", () => {
    const b = compose("brightloop");
    const text = LISTS.flatMap((k) => b.sections[k]).join("\n");
    expect(b.sections.weaknesses.join("\n")).toContain("Ended its free plan (seen 21 Nov 2026)");
    expect(b.sections.strengths.join("\n")).not.toMatch(/free (?:plan|tier)/i);
    expect(text).toContain("$40 million Series B");
    expect(text).not.toContain("$32M");
  });

  test("the period's most material moves are on the card", () => {
    const b = compose("brightloop");
    expect(b.sections.strengths[0]).toBe("Growth plan cut from $119 to $99/month (-17%, seen 21 Nov 2026).");
    const g = compose("globex");
    expect(g.sections.weaknesses[0]).toBe(
      "Team plan raised from $59 to $69 per seat/month (+17%, seen 21 Nov 2026).",
    );
    expect(g.sections.landmines.join("\n")).toContain("Warehouse sync (Snowflake, BigQuery)");
    // The dossier's older Team price is not stated beside the newer one.
    expect(g.sections.talk_tracks.join("\n")).not.toContain('"Team plan from $59');
  });
});

test("one talk track and one landmine per kind of move: the same advice is never given twice", () => {
  const sig = (id: number, title: string, type: string, day: string) => ({
    id,
    title,
    type,
    severity: "medium",
    first_seen_at: `2026-11-${day}T09:00:00.000Z`,
    evidence: [{ source_url: "https://acme.example/changelog", text: title }],
  });
  const c = composeBattlecard({
    competitorId: 1,
    competitor: { name: "Acme", watch: "core", tracking: "active" },
    signals: [
      sig(1, "Acme launches Journeys", "feature_launch", "20"),
      sig(2, "Acme launches Alerts", "feature_launch", "19"),
      sig(3, "Acme moves SSO from Team plan to Enterprise plan", "packaging_change", "18"),
      sig(4, "Acme moves Audit logs from Team plan to Enterprise plan", "packaging_change", "17"),
    ],
    notes: [],
    now: NOW.toISOString(),
  });
  // Both launches and both tier moves are stated…
  expect(c.sections.strengths).toEqual([
    "Launches Journeys (seen 20 Nov 2026).",
    "Launches Alerts (seen 19 Nov 2026).",
  ]);
  expect(c.sections.weaknesses).toEqual([
    "SSO moved from Team to Enterprise (seen 18 Nov 2026).",
    "Audit logs moved from Team to Enterprise (seen 17 Nov 2026).",
  ]);
  // …and advised on once each, for the most material (here the newest).
  expect(c.sections.talk_tracks).toHaveLength(1);
  expect(c.sections.talk_tracks[0]).toStartWith("Acme launches Journeys (seen 20 Nov 2026): ask whether");
  expect(c.sections.landmines).toEqual([
    "Ask whether the buyer needs SSO: at Acme it now takes the Enterprise plan as of 18 Nov 2026, so get that quote before comparing Team prices.",
  ]);
});

test("a card the engine wrote: the next cycle proposes, naming the newer fact behind each line it drops", () => {
  const signal = (id: number, before: string, after: string, day: string, pct: string) => ({
    id,
    title: `Acme raises Team plan price from ${before} to ${after} per seat/month (${pct})`,
    type: "price_increase",
    category: "pricing",
    subject: "Team",
    value_before: `${before} per seat/month`,
    value_after: `${after} per seat/month`,
    severity: "high",
    first_seen_at: `2026-11-${day}T09:00:00.000Z`,
    evidence: [{ source_url: "https://acme.example/pricing", text: `Team: ${before} → ${after}` }],
  });
  const acme = { name: "Acme", watch: "core" as const, tracking: "active" as const };
  const first = composeBattlecard({
    competitorId: 1,
    competitor: acme,
    signals: [signal(1, "$49", "$59", "10", "+20%")],
    notes: [],
  });
  const stored = generatedCard(undefined, first, new Date("2026-11-10T10:00:00.000Z")).record;
  const next = composeBattlecard({
    competitorId: 1,
    competitor: acme,
    // The $49 → $59 rise is superseded: only the newer one is open.
    signals: [signal(2, "$59", "$69", "20", "+17%")],
    notes: [],
  });
  const p = decideCardProposal({ id: 5, competitor_id: 1, orgId: 1, stored }, next, { now: NOW })!.data
    .proposal;
  expect(p.drop).toContainEqual({
    section: "weaknesses",
    text: "Team plan raised from $49 to $59 per seat/month (+20%, seen 10 Nov 2026).",
    because: "Newer fact: Team plan raised from $59 to $69 per seat/month (+17%, seen 20 Nov 2026).",
  });
  expect(p.add.map((l) => l.text)).toContain(
    "Team plan raised from $59 to $69 per seat/month (+17%, seen 20 Nov 2026).",
  );
});

describe("a curated card through a cycle", () => {
  const globex = DEMO.globex.card as StoredCard;
  const card = { id: 9, key: "globex-card", competitor_id: 1, orgId: 1, stored: globex };
  const proposed = decideCardProposal(card, compose("globex", true), { now: NOW, cycle_id: 4 });

  test("keeps every line people wrote; the engine's update is a proposal", () => {
    expect(proposed?.type).toBe("BattlecardProposed");
    const p = proposed!.data.proposal;
    expect(p.add.map((l) => l.text)).toContain(
      "Team plan raised from $59 to $69 per seat/month (+17%, seen 21 Nov 2026).",
    );
    // The one line a newer fact contradicts is named, with the fact.
    expect(p.drop).toEqual([
      {
        section: "weaknesses",
        text: "Team plan now $59 per seat, 20% more than in October",
        because: "Newer fact: Team plan raised from $59 to $69 per seat/month (+17%, seen 21 Nov 2026).",
        signal_id: 1193,
      },
    ]);
    // Every other curated line stays, the talk tracks word for word.
    const tt = p.sections.talk_tracks as string[];
    for (const line of globex.sections!.talk_tracks as string[]) expect(tt).toContain(line);
    expect(p.sections.overview).toBe(globex.sections!.overview);
    // The same proposal again is not proposed twice.
    const again = decideCardProposal(
      { ...card, stored: { ...globex, proposal: p } },
      compose("globex", true),
      { now: new Date("2026-11-22T12:00:00.000Z"), cycle_id: 5 },
    );
    expect(again).toBeUndefined();
  });

  test("accept makes the proposal the card; dismiss leaves the card; a stale proposal is refused", () => {
    const stored = { ...globex, proposal: proposed!.data.proposal };
    const later = new Date("2026-11-22T09:00:00.000Z");
    const accepted = decideAcceptProposal({ ...card, stored }, {}, later);
    expect(accepted.data.record.sections).toEqual(proposed!.data.proposal.sections);
    expect(accepted.data.record.generated_at).toBe(later.toISOString());
    expect(accepted.data.record.team?.talk_tracks).toHaveLength(3);
    const dismissed = decideDismissProposal(
      { ...card, stored },
      { proposed_at: stored.proposal.proposed_at },
    );
    // The team's line whose drop was dismissed is kept, with the fact behind it.
    const kept = {
      section: "weaknesses",
      text: "Team plan now $59 per seat, 20% more than in October",
      because: "Newer fact: Team plan raised from $59 to $69 per seat/month (+17%, seen 21 Nov 2026).",
    };
    expect(dismissed.data).toEqual({ id: 9, competitor_id: 1, proposed_at: NOW.toISOString(), kept: [kept] });
    // The next cycle does not propose that drop again for the same fact; the engine's lines still come.
    const next = decideCardProposal(
      { ...card, stored: { ...globex, kept: [kept] } },
      compose("globex", true),
      {
        now: new Date("2026-11-23T12:00:00.000Z"),
        cycle_id: 6,
      },
    );
    expect(next!.data.proposal.drop).toEqual([]);
    expect(next!.data.proposal.add.length).toBeGreaterThan(0);
    expect(next!.data.proposal.sections.weaknesses).toContain(kept.text);
    // Accepting a later proposal keeps the memory.
    const acceptedLater = decideAcceptProposal(
      { ...card, stored: { ...globex, kept: [kept], proposal: next!.data.proposal } },
      {},
      later,
    );
    expect(acceptedLater.data.record.kept).toEqual([kept]);
    expect(() => decideAcceptProposal({ ...card, stored: globex }, {}, later)).toThrow("no proposed update");
    expect(() =>
      decideAcceptProposal({ ...card, stored }, { proposed_at: "2026-01-01T00:00:00.000Z" }, later),
    ).toThrow("changed since");
  });

  test("generate_battlecard keeps the team's lines and says what it replaced", () => {
    const b = DEMO.brightloop.card as StoredCard;
    const out = generatedCard(b, compose("brightloop", true), NOW);
    for (const line of b.sections!.talk_tracks as string[])
      expect(out.record.sections!.talk_tracks as string[]).toContain(line);
    // The contradicted curated strength stays until a member accepts its drop; the contradicting fact waits too.
    expect(out.record.sections!.strengths as string[]).toContain("Low entry price and generous free tier");
    expect(out.record.sections!.weaknesses as string[]).not.toContain(
      "Ended its free plan (seen 21 Nov 2026): every seat now needs a paid plan.",
    );
    expect(out.record.proposal?.drop.map((d) => d.text)).toEqual(["Low entry price and generous free tier"]);
    expect(out.replaced?.team_lines_kept).toBe(10);
    expect(out.replaced?.summary).toContain("Replaced the card of 18 Nov 2026");
  });
});

test("a card's Markdown fits two printed pages (at most 110 lines of 90 characters, wrapped)", () => {
  for (const key of Object.keys(DEMO) as (keyof typeof DEMO)[]) {
    for (const team of [false, true]) {
      const d = DEMO[key];
      const composed = compose(key, team);
      const record = team
        ? decideCardProposal({ id: 1, competitor_id: 1, orgId: 1, stored: d.card as StoredCard }, composed, {
            now: NOW,
          })!.data.proposal
        : generatedCard(undefined, composed, NOW).record;
      const md = battlecardMarkdown(
        {
          id: 1,
          competitor_id: 1,
          competitor_name: d.competitor.name,
          generated_at: NOW.toISOString(),
          sections: record.sections,
          evidence: record.evidence,
        },
        [],
        "http://localhost:3000",
      );
      const printed = md.split("\n").reduce((n, l) => n + Math.max(1, Math.ceil(l.length / 90)), 0);
      expect(printed).toBeLessThanOrEqual(110);
      if (!team) expectProse([{ where: `${key} Markdown`, text: md }]);
      expect(md).not.toContain("rules-v2");
    }
  }
});

describe("a member's edit", () => {
  const engineCard = generatedCard(undefined, compose("quantive"), NOW).record;
  const card = { id: 3, key: "generated-1", competitor_id: 1, stored: engineCard };
  const later = new Date("2026-11-23T10:00:00.000Z");

  test("makes only the sections it changed the team's; the next composition keeps them", () => {
    const talk = (engineCard.sections!.talk_tracks as string[]).join("\n");
    const e = decideEditCard(
      card,
      {
        sections: {
          talk_tracks: `- Lead with our onboarding time\n${talk}`,
          strengths: (engineCard.sections!.strengths as string[]).join("\n"),
        },
      },
      later,
    );
    expect(e.type).toBe("BattlecardEdited");
    const r = e.data.record;
    expect((r.sections!.talk_tracks as string[])[0]).toBe("Lead with our onboarding time");
    expect(Object.keys(r.team ?? {})).toEqual(["talk_tracks"]);
    expect(r.team_at).toBe(later.toISOString());
    const lines = (r.evidence as { lines: { section: string; by: string }[] }).lines;
    expect(lines.filter((l) => l.section === "talk_tracks").every((l) => l.by === "team")).toBe(true);
    expect(lines.filter((l) => l.section === "strengths").every((l) => l.by === "rivals")).toBe(true);
    // The next generate_battlecard keeps the edited section word for word.
    const next = generatedCard(
      r,
      composeBattlecard({
        competitorId: 1,
        competitor: DEMO.quantive.competitor,
        signals: DEMO.quantive.signals,
        notes: [],
        now: later.toISOString(),
        team: teamOf(r),
      }),
      later,
    );
    expect((next.record.sections!.talk_tracks as string[]).slice(0, 6)).toEqual(
      r.sections!.talk_tracks as string[],
    );
  });

  test("refuses an unknown section, too many lines and an edit that changes nothing", () => {
    expect(() => decideEditCard(card, { sections: { pricing: "x" } }, later)).toThrow('no section "pricing"');
    const many = Array.from({ length: EDIT_MAX_LINES + 1 }, (_, i) => `Line ${i}`).join("\n");
    expect(() => decideEditCard(card, { sections: { landmines: many } }, later)).toThrow("at most 12 lines");
    const same = (engineCard.sections!.weaknesses as string[]).join("\n");
    expect(() => decideEditCard(card, { sections: { weaknesses: same } }, later)).toThrow("Nothing to save");
    expect(() => decideEditCard(undefined, { sections: { weaknesses: "x" } }, later)).toThrow(
      "No battlecard",
    );
  });
});
