// generate_battlecard over the official SDK client: what the card is built from (dossier, signals with
// evidence, team notes as framing), visibility in REST and what_changed, research/plan/free-week/cap/lock
// rules, scopes, and idempotent retries including concurrent duplicates.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { signalFact } from "../../src/engine/battlecardFacts.ts";
import { composeBattlecard } from "../../src/engine/battlecards.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";
import {
  callAs,
  countEvents,
  dumpReadTables,
  idOfKey,
  markFirstBrief,
  orgId,
  principalFor,
  rest,
} from "../support/mcp-write-helpers.ts";

let t: TestServer;
let acme: Client;
let acmeKey: string;
const ids: Record<string, number> = {};
const DAY = 86_400_000;

const call = async (c: Client, name: string, args: Record<string, unknown>) =>
  body(await c.callTool({ name, arguments: args }));

const researched = (org: string, key: string, name: string, extra: Record<string, unknown> = {}) => ({
  kind: "competitor",
  org,
  key,
  name,
  website_url: `https://${key}.example`,
  category: "Product analytics",
  description: "Self-serve product analytics for mid-market SaaS teams.",
  reads: {
    positioning: "Answers without SQL.",
    pricing: {
      model: "Per seat",
      entry_price_text: "Team plan from $59 per seat per month",
      free_tier: true,
    },
    integrations: { count_text: "About 60 integrations", highlights: ["Segment", "HubSpot"] },
  },
  freshness: { state_updated_at: "2026-11-15T06:00:00Z" },
  ...extra,
});

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.org("umbrella");
  await t.org("starterco", "starter");
  await t.load([
    researched("acme", "globex", "Globex"),
    {
      kind: "signal",
      org: "acme",
      key: "price",
      competitor: "globex",
      title: "Globex raises Team plan price by 20%",
      summary: "The Team plan moved from $49 to $59 per seat per month.",
      category: "pricing",
      type: "price_change",
      severity: "high",
      first_seen_at: "2026-11-18T08:12:00Z",
      evidence: [
        {
          source_title: "Globex pricing",
          source_url: "https://globex.example/pricing",
          observed_at: "2026-11-18T08:12:00Z",
        },
      ],
    },
    {
      kind: "signal",
      org: "acme",
      key: "launch",
      competitor: "globex",
      title: "Globex launches Ask, an AI question box",
      type: "product_launch",
      severity: "medium",
      first_seen_at: "2026-11-04T15:00:00Z",
      evidence: [{ source_url: "https://globex.example/blog/ask" }],
    },
    {
      kind: "signal",
      org: "acme",
      key: "closed",
      competitor: "globex",
      title: "Closed thing",
      status: "closed",
    },
    researched("acme", "initech", "Initech"),
    {
      kind: "battlecard",
      org: "acme",
      key: "old-card",
      competitor: "initech",
      generated_at: "2026-10-01T00:00:00Z",
      sections: { overview: "Old." },
    },
    { kind: "competitor", org: "acme", key: "bare", name: "Bare Co", website_url: "https://bare.example" },
    researched("acme", "far", "Far Horizon", { watch: "horizon" }),
    researched("umbrella", "hidden", "Hidden"),
    researched("starterco", "s1", "Starter Rival"),
  ]);
  acmeKey = await t.key("acme");
  acme = await mcpClient(t.base, acmeKey);
  for (const k of ["globex", "initech", "bare", "far", "hidden", "s1"])
    ids[k] = await idOfKey(t, "competitors", k);
  for (const k of ["price", "launch", "closed"]) ids[k] = await idOfKey(t, "signals", k);
  ids.oldCard = await idOfKey(t, "battlecards", "old-card");
});
afterAll(() => t.close());

describe("generate_battlecard", () => {
  test("writes a card from the dossier, the signals with their evidence and the team notes (as framing)", async () => {
    await call(acme, "update_company_profile", {
      differentiators: ["SSO on every plan", "Warehouse-native"],
    });
    await call(acme, "add_battlecard_note", {
      competitor_id: ids.globex,
      body: "Reps hear Globex support is slow.",
    });
    const since = t.clock.now.toISOString();
    const r = await call(acme, "generate_battlecard", {
      competitor_id: ids.globex,
      idempotency_key: "first",
    });
    expect(r.rewritten).toBe(false);
    expect(r.generations_today).toEqual({ used: 1, limit: 20, plan: "growth" });
    const card = r.battlecard;
    expect(card.competitor_id).toBe(ids.globex);
    expect(card.competitor_name).toBe("Globex");
    expect(card.status).toBe("generated");
    expect(card.generated_at).toBe(t.clock.now.toISOString());
    const s = card.sections;
    expect(typeof s.overview).toBe("string");
    expect(s.overview).toStartWith("Globex: Product analytics.");
    expect(s.overview).toContain('Its pitch: "Answers without SQL".');
    for (const k of ["strengths", "weaknesses", "talk_tracks"]) expect(Array.isArray(s[k])).toBe(true);
    // Each line names its fact: the plan, the prices, the date.
    expect(s.weaknesses).toContain("Team plan raised from $49 to $59 (+20%, seen 18 Nov 2026).");
    expect(s.strengths.join("\n")).toContain("Launches Ask, an AI question box (seen 4 Nov 2026).");
    expect(s.strengths.join("\n")).toContain(
      "Integrations: About 60 integrations, including Segment, HubSpot.",
    );
    expect(s.talk_tracks.join("\n")).toContain("Globex's Team plan costs $59 as of 18 Nov 2026, up from $49");
    // Links are the evidence's, not bare URLs in the prose.
    expect(JSON.stringify(s)).not.toContain("https://");
    // Team notes are framing: labelled, and never among strengths, weaknesses or talk tracks.
    expect(s.team_framing).toEqual([
      expect.stringContaining("not verified): Reps hear Globex support is slow."),
    ]);
    for (const k of ["strengths", "weaknesses", "talk_tracks", "landmines"])
      expect(JSON.stringify(s[k] ?? [])).not.toContain("support is slow");
    // Evidence points at the signals and URLs used; closed signals are not read.
    const ev = card.evidence;
    expect(ev.signal_ids.sort()).toEqual([ids.price, ids.launch].sort());
    expect(ev.signal_ids).not.toContain(ids.closed);
    expect(ev.sources.map((x: { url: string }) => x.url)).toEqual(
      expect.arrayContaining(["https://globex.example/pricing", "https://globex.example/blog/ask"]),
    );
    expect(ev.team_notes.note_ids).toHaveLength(1);
    expect(ev.team_notes.treated_as).toContain("not verified fact");
    expect(ev.dossier.fields).toEqual(
      expect.arrayContaining(["description", "reads.positioning", "reads.pricing"]),
    );
    // Every line says what it rests on and who wrote it.
    for (const l of ev.lines) {
      expect(l.by).toBe("rivals");
      expect(l.signal_id !== undefined || l.dossier_field !== undefined).toBe(true);
    }

    // Visible at once: REST list and by id, the dossier's link, what_changed.
    const list = (await rest(t, acmeKey, "/api/v1/battlecards")).json.data;
    expect(list.find((b: { competitor_id: number }) => b.competitor_id === ids.globex)).toEqual(card);
    expect((await rest(t, acmeKey, `/api/v1/battlecards/${card.id}`)).json.data).toEqual(card);
    expect((await rest(t, acmeKey, `/api/v1/competitors/${ids.globex}`)).json.data.links.battlecard_id).toBe(
      card.id,
    );
    const changed = await call(acme, "what_changed", { since });
    expect(changed.battlecards.map((b: { id: number }) => b.id)).toContain(card.id);
  });

  test("rewrites an existing battlecard in place (same id, new generated_at), keeping the people's words", async () => {
    t.clock.advance(60_000);
    const r = await call(acme, "generate_battlecard", { competitor_id: ids.initech });
    expect(r.rewritten).toBe(true);
    expect(r.battlecard.id).toBe(ids.oldCard);
    expect(r.battlecard.generated_at).toBe(t.clock.now.toISOString());
    // The imported overview is the team's: kept as written; the engine adds what the dossier states.
    expect(r.battlecard.sections.overview).toBe("Old.");
    expect(r.battlecard.sections.strengths.join("\n")).toContain("Integrations: About 60 integrations");
    expect(r.battlecard.sections.weaknesses).toBeUndefined();
    expect(r.replaced).toMatchObject({
      previous_generated_at: "2026-10-01T00:00:00.000Z",
      removed: [],
      team_lines_kept: 1,
    });
    expect(r.replaced.summary).toStartWith("Replaced the card of 1 Oct 2026;");
    expect(r.replaced.summary).toContain("the team's 1 line kept as written");
  });

  test("refuses: no finished research, horizon, removed, unknown, other org's", async () => {
    const bare = await call(acme, "generate_battlecard", { competitor_id: ids.bare });
    expect(bare.error.code).toBe("research_required");
    const added = await call(acme, "add_competitor", { website_url: "https://fresh.example" });
    expect((await call(acme, "generate_battlecard", { competitor_id: added.competitor.id })).error.code).toBe(
      "research_required",
    );
    expect((await call(acme, "generate_battlecard", { competitor_id: ids.far })).error.code).toBe(
      "invalid_argument",
    );
    expect((await call(acme, "generate_battlecard", { competitor_id: ids.hidden })).error.code).toBe(
      "not_found",
    );
    expect((await call(acme, "generate_battlecard", { competitor_id: 31337 })).error.code).toBe("not_found");
    await call(acme, "remove_competitor", { competitor_id: added.competitor.id });
    expect((await call(acme, "generate_battlecard", { competitor_id: added.competitor.id })).error.code).toBe(
      "not_found",
    );
    expect((await call(acme, "generate_battlecard", {})).error.code).toBe("invalid_argument");
  });

  test("not admin-only: a member may generate", async () => {
    const member = await principalFor(t, "acme", "member");
    const r = await callAs(t, member, "generate_battlecard", { competitor_id: ids.globex });
    expect(r.battlecard.competitor_id).toBe(ids.globex);
  });

  test("needs the spend scope: HTTP 403 insufficient_scope without it", async () => {
    const noSpend = await t.key("acme", "read,write");
    const r = await rawPost(t.base, toolsCall("generate_battlecard", { competitor_id: ids.globex }), {
      authorization: `Bearer ${noSpend}`,
    });
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toContain('scope="spend"');
  });
});

describe("daily cap, plan and lock", () => {
  test("counts toward the plan's daily cap per UTC day: limit_reached, then free again the next day", async () => {
    const starter = await mcpClient(t.base, await t.key("starterco"));
    // Move to the start of a fresh UTC day with room for five runs.
    const next = new Date(t.clock.now);
    next.setUTCHours(24, 0, 0, 0);
    t.clock.now = new Date(next.getTime() + 60_000);
    for (let i = 1; i <= 5; i++) {
      const r = await call(starter, "generate_battlecard", { competitor_id: ids.s1 });
      expect(r.generations_today).toEqual({ used: i, limit: 5, plan: "starter" });
    }
    const n = await countEvents(t, "BattlecardGenerated");
    const over = await call(starter, "generate_battlecard", { competitor_id: ids.s1 });
    expect(over.error.code).toBe("limit_reached");
    expect(over.error.limit).toBe("daily_battlecards");
    expect(over.error.allowed).toBe(5);
    expect(over.error.plan).toBe("starter");
    expect(over.error.plan_needed).toBe("growth");
    expect(await countEvents(t, "BattlecardGenerated")).toBe(n);
    // Other workspaces have their own count.
    expect((await call(acme, "generate_battlecard", { competitor_id: ids.globex })).battlecard).toBeDefined();
    t.clock.now = new Date(next.getTime() + DAY);
    expect(
      (await call(starter, "generate_battlecard", { competitor_id: ids.s1 })).generations_today.used,
    ).toBe(1);
  });

  test("free and trial plans: allowed in the free first week, plan_required after it", async () => {
    for (const plan of ["free", "trial"]) {
      const slug = `new-${plan}`;
      await t.org(slug, plan);
      await t.load([researched(slug, "r1", "Rival One")]);
      const c = await mcpClient(t.base, await t.key(slug));
      const cid = body(await c.callTool({ name: "list_competitors", arguments: {} })).competitors[0].id;
      t.clock.advance(6 * DAY);
      const ok = await call(c, "generate_battlecard", { competitor_id: cid });
      expect(ok.battlecard.competitor_id).toBe(cid);
      t.clock.advance(DAY);
      const late = await call(c, "generate_battlecard", { competitor_id: cid });
      expect(late.error.code).toBe("plan_required");
      expect(late.error.plan_needed).toBe("starter");
      expect(late.error.message).toContain("free first week");
    }
  });

  test("locked while the workspace's first brief runs", async () => {
    const id = await orgId(t, "acme");
    await markFirstBrief(t, id, "start");
    const r = await call(acme, "generate_battlecard", { competitor_id: ids.globex });
    expect(r.error.code).toBe("locked");
    await markFirstBrief(t, id, "finish");
    expect((await call(acme, "generate_battlecard", { competitor_id: ids.globex })).battlecard).toBeDefined();
  });
});

describe("idempotency", () => {
  test("a retry with the same key returns the first result and does no new work", async () => {
    const n = await countEvents(t, "BattlecardGenerated");
    const a = await call(acme, "generate_battlecard", {
      competitor_id: ids.globex,
      idempotency_key: "retry-1",
    });
    t.clock.advance(1000);
    const b = await call(acme, "generate_battlecard", {
      competitor_id: ids.globex,
      idempotency_key: "retry-1",
    });
    expect(b).toEqual(a);
    expect(await countEvents(t, "BattlecardGenerated")).toBe(n + 1);
  });

  test("two concurrent duplicates do the work once", async () => {
    const n = await countEvents(t, "BattlecardGenerated");
    const args = { competitor_id: ids.initech, idempotency_key: "concurrent-1" };
    const [a, b] = await Promise.all([
      call(acme, "generate_battlecard", args),
      call(acme, "generate_battlecard", args),
    ]);
    expect(a).toEqual(b);
    expect(await countEvents(t, "BattlecardGenerated")).toBe(n + 1);
  });

  test("the same key with other arguments is an error", async () => {
    const r = await call(acme, "generate_battlecard", {
      competitor_id: ids.initech,
      idempotency_key: "retry-1",
    });
    expect(r.error.code).toBe("idempotency_conflict");
  });
});

describe("the composer", () => {
  test("reads a setback as a weakness and a move as a strength, imported titles included", () => {
    const acme = { name: "Acme", watch: "core" as const, tracking: "active" as const };
    const stance = (title: string) => signalFact({ id: 1, title, evidence: [] }, acme).stance;
    expect(stance("Acme raises prices")).toBe("weakness");
    expect(stance("Acme raises $40M Series B")).toBe("strength");
    expect(stance("Acme moves SSO to the Enterprise plan")).toBe("weakness");
    expect(stance("Acme launches a mobile app")).toBe("strength");
    expect(stance("Acme updates its logo")).toBe("neutral");
  });

  test("is deterministic and needs nothing but stored data", () => {
    const input = {
      competitorId: 1,
      competitor: { name: "Acme", watch: "core" as const, tracking: "active" as const },
      signals: [],
      notes: [],
    };
    const a = composeBattlecard(input);
    expect(composeBattlecard(input)).toEqual(a);
    expect(a.sections.overview).toBe("Acme.");
    expect(a.sections.strengths).toEqual([]);
  });
});

test("projections rebuild reproduces battlecards and the generation log", async () => {
  const before = await dumpReadTables(t);
  expect(before.battlecard_generations.length).toBeGreaterThan(5);
  await rebuildProjections(t.services.store);
  expect(await dumpReadTables(t)).toEqual(before);
});

describe("review_battlecard", () => {
  let client: Client;
  let rival: number;
  let bare: number;
  const stale = "Rival's Starter plan is the cheapest way in";
  beforeAll(async () => {
    await t.org("reviewco", "growth");
    await t.load([
      researched("reviewco", "rival", "Rival", {
        reads: {
          pricing: {
            page: "https://rival.example/pricing",
            plans: [
              { name: "Team", price: 69, amount: 69, period: "month", currency: "USD" },
              { name: "Enterprise", custom: true },
            ],
          },
        },
      }),
      {
        kind: "battlecard",
        org: "reviewco",
        key: "rival-card",
        competitor: "rival",
        generated_at: "2026-11-01T09:00:00Z",
        sections: { weaknesses: [stale, "Slow support"], talk_tracks: ["Lead with onboarding time"] },
      },
      researched("reviewco", "nocard", "No Card"),
    ]);
    client = await mcpClient(t.base, await t.key("reviewco", "read,write,spend"));
    rival = await idOfKey(t, "competitors", "rival");
    bare = await idOfKey(t, "competitors", "nocard");
    // Generating keeps the team's line and proposes its drop (the pricing page no longer lists a Starter plan).
    const g = await call(client, "generate_battlecard", { competitor_id: rival });
    expect(g.battlecard.sections.weaknesses).toContain(stale);
  });

  test("needs the write scope: HTTP 403 insufficient_scope without it", async () => {
    const readOnly = await t.key("reviewco", "read");
    const r = await rawPost(
      t.base,
      toolsCall("review_battlecard", { competitor_id: rival, decision: "dismiss" }),
      { authorization: `Bearer ${readOnly}` },
    );
    expect(r.status).toBe(403);
    expect(r.headers.get("www-authenticate")).toContain('scope="write"');
  });

  test("accept makes the proposal the card, once per idempotency key; then nothing is pending", async () => {
    const pending = await call(client, "get_battlecard", { competitor_id: rival });
    expect(pending.proposal.drop).toEqual([
      expect.objectContaining({
        section: "weaknesses",
        text: stale,
        because: expect.stringContaining("Starter"),
      }),
    ]);
    // A proposal that changed since it was read is refused, and changes nothing.
    const old = await call(client, "review_battlecard", {
      competitor_id: rival,
      decision: "accept",
      proposed_at: "2026-01-01T00:00:00.000Z",
    });
    expect(old.error.code).toBe("conflict");
    const n = await countEvents(t, "BattlecardProposalAccepted");
    const args = {
      competitor_id: rival,
      decision: "accept",
      proposed_at: pending.proposal.proposed_at,
      idempotency_key: "accept-1",
    };
    const a = await call(client, "review_battlecard", args);
    expect(a.decision).toBe("accept");
    expect(a.battlecard.sections.weaknesses).not.toContain(stale);
    expect(a.battlecard.sections.weaknesses).toContain("Slow support");
    expect(a.battlecard.sections.talk_tracks).toContain("Lead with onboarding time");
    expect(await call(client, "review_battlecard", args)).toEqual(a);
    expect(await countEvents(t, "BattlecardProposalAccepted")).toBe(n + 1);
    expect((await call(client, "get_battlecard", { competitor_id: rival })).proposal).toBeUndefined();
    const again = await call(client, "review_battlecard", { competitor_id: rival, decision: "dismiss" });
    expect(again.error.code).toBe("conflict");
    expect(again.error.message).toContain("no proposed update");
  });

  test("dismiss keeps the team's line, and generating again does not propose its drop for the same fact", async () => {
    await t.load([
      {
        kind: "battlecard",
        org: "reviewco",
        key: "rival-card",
        competitor: "rival",
        generated_at: "2026-11-02T09:00:00Z",
        sections: { weaknesses: [stale, "Slow support"] },
      },
    ]);
    await call(client, "generate_battlecard", { competitor_id: rival });
    const pending = await call(client, "get_battlecard", { competitor_id: rival });
    expect(pending.proposal.drop.map((d: { text: string }) => d.text)).toEqual([stale]);
    const d = await call(client, "review_battlecard", { competitor_id: rival, decision: "dismiss" });
    expect(d.decision).toBe("dismiss");
    expect(d.battlecard.sections.weaknesses).toContain(stale);
    const again = await call(client, "generate_battlecard", { competitor_id: rival });
    expect(again.battlecard.sections.weaknesses).toContain(stale);
    expect((await call(client, "get_battlecard", { competitor_id: rival })).proposal).toBeUndefined();
    // The memory is in the log: a rebuild of the read tables gives the same cards.
    const before = await dumpReadTables(t);
    await rebuildProjections(t.services.store);
    expect(await dumpReadTables(t)).toEqual(before);
  });

  test("a competitor without a card, or of another workspace, is not found", async () => {
    expect(
      (await call(client, "review_battlecard", { competitor_id: bare, decision: "accept" })).error.code,
    ).toBe("not_found");
    expect(
      (await call(client, "review_battlecard", { competitor_id: ids.hidden, decision: "accept" })).error.code,
    ).toBe("not_found");
  });
});
