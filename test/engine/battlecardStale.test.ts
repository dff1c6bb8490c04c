// A person's battlecard line that names what the dossier no longer states (a plan gone from the pricing page, a
// plan's old price, a feature under a plan that no longer has it) is named to a member with the dossier's fact;
// the line itself stays until a member accepts its drop. Lines about our own offer, lines that say a plan lacks
// something, and lines the pricing page still bears out are left alone.
import { describe, expect, test } from "bun:test";
import { decideCardProposal, type StoredCard } from "../../src/domain/battlecardProposals.ts";
import type { CompetitorRecord } from "../../src/domain/records.ts";
import { staleAgainstDossier } from "../../src/engine/battlecardStale.ts";
import { composeBattlecard } from "../../src/engine/battlecards.ts";
import { expectProse } from "../support/prose-check.ts";

const globex: CompetitorRecord = {
  name: "Globex",
  watch: "core",
  tracking: "active",
  reads: {
    pricing: {
      page: "https://globex.example/pricing",
      plans: [
        { name: "Free", price: 0, amount: 0, features: ["Up to 3 seats", "Core dashboards"] },
        {
          name: "Team",
          price: 69,
          amount: 69,
          period: "month",
          currency: "USD",
          annual: { amount: 708, period: "year", monthly_equivalent: 59 },
          features: ["Unlimited dashboards", "Globex Ask"],
        },
        {
          name: "Enterprise",
          custom: true,
          features: ["Everything in Team", "SSO (SAML)", "Warehouse sync (Snowflake, BigQuery)"],
        },
      ],
    },
  },
};

const stale = (lines: string[]) => staleAgainstDossier(globex, { weaknesses: lines });

describe("lines the dossier no longer bears out", () => {
  test("a plan the pricing page no longer lists", () => {
    expect(stale(["Globex's Starter plan is the cheapest way in"])).toEqual([
      {
        section: "weaknesses",
        text: "Globex's Starter plan is the cheapest way in",
        because: "Globex's pricing page no longer lists a Starter plan; it lists Free, Team and Enterprise.",
      },
    ]);
  });

  test("a plan at a price it no longer has", () => {
    expect(stale(["Team plan is $49 per seat"])[0]?.because).toBe(
      "Globex's Team plan costs $69 a month now.",
    );
    // Any figure the page states for the plan is current: as billed, billed yearly, its monthly equivalent.
    expect(
      stale(["Team costs $69 per seat", "Team is $59 a month billed yearly", "Team is $708 a year"]),
    ).toEqual([]);
  });

  test("a feature under a plan that no longer includes it", () => {
    expect(stale(["Warehouse sync comes with the Team plan"])[0]?.because).toBe(
      "Globex's pricing page lists Warehouse sync under Enterprise, not Team.",
    );
    // A plan that includes another's features ("Everything in Team") has them.
    expect(stale(["Enterprise includes Globex Ask for every seat"])).toEqual([]);
  });

  test("lines about our own offer, lines saying a plan lacks something, and other words are left alone", () => {
    expect(
      stale([
        "Every plan includes dashboards",
        "Our Growth plan includes SSO at $49",
        "Ask for the Enterprise quote before comparing seat prices — we include SSO on Growth at $39.",
        "Team lacks Warehouse sync, so data teams wait for Enterprise",
        "Their team pays $45 a seat elsewhere",
        "Polished, fast UI that product managers adopt without training",
      ]),
    ).toEqual([]);
  });

  test("nothing is read without the pricing page's plans", () => {
    expect(
      staleAgainstDossier({ ...globex, reads: {} }, { weaknesses: ["Globex's Starter plan is $10"] }),
    ).toEqual([]);
  });

  test("the words a member reads are prose", () => {
    expectProse(
      stale([
        "Globex's Starter plan is the cheapest way in",
        "Team plan is $49 per seat",
        "Warehouse sync comes with the Team plan",
      ]).map((o) => ({ where: o.text, text: o.because })),
    );
  });
});

test("through a cycle the curated line stays and its drop is proposed with the dossier's fact", () => {
  const curated: StoredCard = {
    status: "generated",
    generated_at: "2026-11-18T09:00:00.000Z",
    sections: {
      weaknesses: ["Warehouse sync comes with the Team plan", "Separate event store"],
      talk_tracks: ["Compare seat prices only after the SSO question"],
    },
    team: {
      weaknesses: ["Warehouse sync comes with the Team plan", "Separate event store"],
      talk_tracks: ["Compare seat prices only after the SSO question"],
    },
    team_at: "2026-11-18T09:00:00.000Z",
  };
  const composed = composeBattlecard({
    competitorId: 1,
    competitor: globex,
    signals: [],
    notes: [],
    now: "2026-11-21T12:00:00.000Z",
    team: { sections: curated.team!, at: curated.team_at },
  });
  expect(composed.outdated).toEqual([
    {
      section: "weaknesses",
      text: "Warehouse sync comes with the Team plan",
      because: "Globex's pricing page lists Warehouse sync under Enterprise, not Team.",
    },
  ]);
  const proposed = decideCardProposal({ id: 9, competitor_id: 1, orgId: 1, stored: curated }, composed, {
    now: new Date("2026-11-21T12:00:00.000Z"),
  });
  const p = proposed!.data.proposal;
  expect(p.drop).toEqual([
    {
      section: "weaknesses",
      text: "Warehouse sync comes with the Team plan",
      because: "Newer fact: Globex's pricing page lists Warehouse sync under Enterprise, not Team.",
    },
  ]);
  // Until a member accepts, the card is as the team wrote it.
  expect(curated.sections!.weaknesses).toContain("Warehouse sync comes with the Team plan");
  expect(p.sections.weaknesses).toEqual([
    "Separate event store",
    ...(p.sections.weaknesses as string[]).slice(1),
  ]);
});

test("a team line still offering an integration or a feature a newer signal says went is named; one saying it went is not", () => {
  const composed = composeBattlecard({
    competitorId: 1,
    competitor: { ...globex, reads: {} },
    signals: [
      {
        id: 41,
        title: "Globex removes Amazon Redshift integration",
        category: "product",
        type: "integration_removed",
        subject: "Amazon Redshift",
        severity: "medium",
        first_seen_at: "2026-11-20T09:00:00.000Z",
        evidence: [{ text: "Amazon Redshift", source_url: "https://globex.example/integrations" }],
      },
    ],
    notes: [],
    now: "2026-11-21T12:00:00.000Z",
    team: {
      sections: {
        strengths: ["Syncs both ways with Amazon Redshift", "Fast UI"],
        landmines: ["Globex dropped Amazon Redshift: ask whether the buyer relies on it"],
      },
      at: "2026-11-18T09:00:00.000Z",
    },
  });
  expect(composed.outdated).toEqual([
    {
      section: "strengths",
      text: "Syncs both ways with Amazon Redshift",
      because: expect.stringContaining("Amazon Redshift"),
      signal_id: 41,
    },
  ]);
});
