// decideGenerateBattlecard on plain state, no database: the refusals in the order the tool documents (plan after
// the free week, first-brief lock, unknown or horizon competitor, no research, daily cap) and the one
// BattlecardGenerated event, new or replacing the card under its id and key, composed by the real composer.
import { describe, expect, test } from "bun:test";
import {
  type CardInputs,
  composeCard,
  decideGenerateBattlecard,
  type GenerateBattlecardState,
} from "../../src/domain/battlecardGeneration.ts";
import type { BattlecardInput } from "../../src/domain/battlecardTypes.ts";
import { DomainError } from "../../src/domain/errors.ts";
import type { CompetitorRow } from "../../src/domain/watchlist.ts";
import type { WorkspaceSettings } from "../../src/domain/workspace.ts";
import { composeBattlecard } from "../../src/engine/battlecards.ts";

const NOW = new Date("2026-03-04T10:00:00.000Z");
const caller = { orgId: 7, actor: "key:1" };

const comp: CompetitorRow = {
  id: 3,
  key: "added-3",
  name: "Globex",
  website_url: "https://globex.example/",
  watch: "core",
  tracking: "active",
  record: {
    name: "Globex",
    watch: "core",
    tracking: "active",
    description: "Product analytics.",
    reads: { positioning: "Answers without SQL." },
  },
};

const settings = {
  orgId: 7,
  plan: "starter",
  profile: { differentiators: ["Warehouse-native"] },
  firstBrief: "finished",
} as WorkspaceSettings;

const card: CardInputs = {
  signals: [
    {
      id: 40,
      title: "Globex raises Team to $59",
      category: "pricing",
      type: "price_increase",
      severity: "high",
      first_seen_at: "2026-03-01T00:00:00.000Z",
      evidence: [{ source_url: "https://globex.example/pricing", text: "Team $59" }],
    },
  ],
  notes: [{ id: 90, body: "They discount at quarter end.", created_at: "2026-02-20T00:00:00.000Z" }],
  notesTotal: 4,
};

function state(over: Partial<GenerateBattlecardState> = {}): GenerateBattlecardState {
  return {
    org: { id: 7, plan: "starter", created_at: "2026-01-01T00:00:00.000Z" },
    settings,
    comp,
    usedToday: 2,
    card,
    ...over,
  };
}

const seen: BattlecardInput[] = [];
const composer = (input: BattlecardInput) => {
  seen.push(input);
  return composeBattlecard(input);
};
const decide = (st: GenerateBattlecardState, cardId = 55) =>
  decideGenerateBattlecard(
    st,
    caller,
    { competitor_id: 3 },
    { now: NOW, cardId, composeBattlecard: composer },
  );

function refusal(f: () => unknown): DomainError {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("decideGenerateBattlecard", () => {
  test("a first card: BattlecardGenerated under the given id, composed from the loaded inputs", () => {
    seen.length = 0;
    const out = decide(state());
    expect(out.events).toHaveLength(1);
    const e = out.events[0];
    expect([e.type, e.orgId, e.streamType, e.streamId]).toEqual([
      "BattlecardGenerated",
      7,
      "battlecard",
      "55",
    ]);
    const data = e.data as {
      id: number;
      key: string;
      competitor_id: number;
      record: Record<string, unknown>;
    };
    expect([data.id, data.key, data.competitor_id]).toEqual([55, "generated-3", 3]);
    expect(data.record.status).toBe("generated");
    expect(data.record.generated_at).toBe(NOW.toISOString());
    expect(JSON.stringify(data.record.evidence)).toContain("https://globex.example/pricing");
    expect(seen).toEqual([
      {
        competitorId: 3,
        competitor: comp.record,
        signals: card.signals,
        notes: card.notes,
        notesTotal: 4,
        own: settings.profile,
        now: NOW.toISOString(),
      },
    ]);
    expect(out.result).toEqual({
      battlecard_id: 55,
      competitor_id: 3,
      rewritten: false,
      generations_today: { used: 3, limit: 5, plan: "starter" },
    });
  });

  test("a rewrite keeps the card's id, key and the person's lines; a cycle only proposes", () => {
    const curated = {
      status: "generated" as const,
      generated_at: "2026-02-01T00:00:00.000Z",
      sections: { overview: "Curated overview.", talk_tracks: ["Lead with our onboarding time."] },
    };
    const existing = { ...card, existing: { id: 21, key: "imported-globex", stored: curated } };
    const out = decide(state({ card: existing }), 21);
    expect(out.result.rewritten).toBe(true);
    expect(out.result.replaced?.team_lines_kept).toBe(2);
    expect(out.events[0].streamId).toBe("21");
    const data = out.events[0].data as { key: string; record: { sections: Record<string, unknown> } };
    expect(data.key).toBe("imported-globex");
    expect(data.record.sections.overview).toBe("Curated overview.");
    expect((data.record.sections.talk_tracks as string[])[0]).toBe("Lead with our onboarding time.");
    const byCycle = composeCard(
      { orgId: 7, comp, own: {}, by: { trigger: "cycle", cycle_id: 8 } },
      existing,
      { now: NOW, cardId: 21, composeBattlecard },
    );
    expect(byCycle.proposed).toBe(true);
    expect(byCycle.event?.type).toBe("BattlecardProposed");
    expect(byCycle.event?.data).toMatchObject({ id: 21, competitor_id: 3, proposal: { cycle_id: 8 } });
    // No card yet: a cycle writes the first one, naming the cycle.
    const first = composeCard({ orgId: 7, comp, own: {}, by: { trigger: "cycle", cycle_id: 8 } }, card, {
      now: NOW,
      cardId: 22,
      composeBattlecard,
    });
    expect(first.event?.type).toBe("BattlecardGenerated");
    expect(first.event?.data).toMatchObject({ id: 22, key: "generated-3", trigger: "cycle", cycle_id: 8 });
  });

  test("refusals, in order", () => {
    const free = { id: 7, plan: "free", created_at: "2026-02-20T00:00:00.000Z" };
    const plan = refusal(() => decide(state({ org: free, comp: undefined })));
    expect([plan.code, plan.extra]).toEqual([
      "plan_required",
      { plan: "free", plan_needed: "starter", free_week_ended_at: "2026-02-27T00:00:00.000Z" },
    ]);
    // In the free first week a free workspace may write cards.
    const inWeek = { ...free, created_at: "2026-03-01T00:00:00.000Z" };
    expect(decide(state({ org: inWeek })).result.generations_today).toEqual({
      used: 3,
      limit: 3,
      plan: "free",
    });

    const locked = { ...settings, firstBrief: "running" } as WorkspaceSettings;
    expect(refusal(() => decide(state({ settings: locked, comp: undefined }))).code).toBe("locked");
    expect(refusal(() => decide(state({ comp: undefined, card: undefined }))).code).toBe("not_found");
    expect(refusal(() => decide(state({ comp: { ...comp, watch: "horizon" } }))).code).toBe(
      "invalid_argument",
    );
    const fresh = {
      ...comp,
      record: { name: "Globex", watch: "core" as const, tracking: "active" as const },
    };
    const research = refusal(() => decide(state({ comp: fresh, usedToday: 99 })));
    expect([research.code, research.extra]).toEqual(["research_required", { competitor_id: 3 }]);
    const cap = refusal(() => decide(state({ usedToday: 5 })));
    expect([cap.code, cap.extra]).toEqual([
      "limit_reached",
      {
        limit: "daily_battlecards",
        allowed: 5,
        used: 5,
        plan: "starter",
        resets_at: "2026-03-05T00:00:00.000Z",
        plan_needed: "growth",
      },
    ]);
  });
});
