// The watchlist deciders on plain state, no database: add (new, restored, renamed on return, duplicate, slots),
// rename, remove, and monitored pages (duplicate, per-competitor limit, horizon, page_id xor url).
import { describe, expect, test } from "bun:test";
import type { NewEvent } from "../../events/catalog.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { InvalidInput } from "../../src/domain/validate.ts";
import {
  type AddCompetitorState,
  type CompetitorRow,
  decideAddCompetitor,
  decideAddMonitoredPage,
  decideRemoveCompetitor,
  decideRemoveMonitoredPage,
  decideRenameCompetitor,
} from "../../src/domain/watchlist.ts";

const NOW = new Date("2026-03-02T10:00:00.000Z");
const caller = { orgId: 7, actor: "key:1" };
const org = (plan: string) => ({ id: 7, plan, created_at: "2026-01-01T00:00:00.000Z" });

function competitor(over: Partial<CompetitorRow> & { id: number }): CompetitorRow {
  const name = over.name ?? "Globex";
  return {
    key: `added-${over.id}`,
    name,
    website_url: "https://globex.example/",
    watch: "core",
    tracking: "active",
    record: { name, watch: "core", tracking: "active" },
    ...over,
  };
}

/** The refusal a decision throws (fails the test when it decides instead). */
function refusal(decide: () => unknown): DomainError | InvalidInput {
  try {
    decide();
  } catch (e) {
    if (e instanceof DomainError || e instanceof InvalidInput) return e;
    throw e;
  }
  throw new Error("expected a refusal");
}

const types = (events: NewEvent[]) => events.map((e) => e.type);

describe("decideAddCompetitor", () => {
  const empty: AddCompetitorState = { org: org("starter"), sameSite: [], coreUsed: 1 };

  test("a new website: CompetitorAdded with the pre-allocated id and key, a name from the domain", () => {
    const out = decideAddCompetitor(empty, caller, { website_url: "www.acme-analytics.co.uk" }, NOW, {
      id: 41,
      key: "added-41",
    });
    expect(out.events).toEqual([
      {
        type: "CompetitorAdded",
        orgId: 7,
        streamType: "competitor",
        streamId: "41",
        data: {
          id: 41,
          key: "added-41",
          name: "Acme Analytics",
          website_url: "https://www.acme-analytics.co.uk/",
          added_at: NOW.toISOString(),
        },
      },
    ]);
    expect(out.result).toEqual({
      id: 41,
      restored: false,
      core_slots: { used: 2, limit: 5, plan: "starter" },
    });
  });

  test("a website known before comes back under its id (an active horizon record first), renamed if asked", () => {
    const st: AddCompetitorState = {
      ...empty,
      sameSite: [
        competitor({ id: 9, tracking: "removed" }),
        competitor({ id: 5, watch: "horizon", name: "Globex Inc" }),
      ],
    };
    const out = decideAddCompetitor(
      st,
      caller,
      { website_url: "http://globex.example", name: "Globex" },
      NOW,
      undefined,
    );
    expect(types(out.events)).toEqual(["CompetitorRestored", "CompetitorRenamed"]);
    expect(out.events.map((e) => e.streamId)).toEqual(["5", "5"]);
    expect(out.events[1].data).toEqual({ id: 5, name: "Globex" });
    expect(out.result.restored).toBe(true);
    // Without a name the old one stays; the newest record comes back when none is active.
    const back = decideAddCompetitor(
      {
        ...empty,
        sameSite: [competitor({ id: 9, tracking: "removed" }), competitor({ id: 3, tracking: "removed" })],
      },
      caller,
      { website_url: "globex.example" },
      NOW,
      undefined,
    );
    expect(types(back.events)).toEqual(["CompetitorRestored"]);
    expect(back.result.id).toBe(9);
  });

  test("refusals: on the core watchlist already, no core slot left, bad URL, long name", () => {
    const dup = refusal(() =>
      decideAddCompetitor(
        { ...empty, sameSite: [competitor({ id: 4 })] },
        caller,
        { website_url: "globex.example" },
        NOW,
        undefined,
      ),
    ) as DomainError;
    expect(dup.code).toBe("conflict");
    expect(dup.extra).toEqual({ competitor_id: 4 });

    const full = refusal(() =>
      decideAddCompetitor(
        { ...empty, org: org("free"), coreUsed: 3 },
        caller,
        { website_url: "initech.example" },
        NOW,
        {
          id: 1,
          key: "added-1",
        },
      ),
    ) as DomainError;
    expect(full.code).toBe("limit_reached");
    expect(full.extra).toMatchObject({
      limit: "core_slots",
      allowed: 3,
      used: 3,
      plan: "free",
      plan_needed: "starter",
    });

    const ip = refusal(() =>
      decideAddCompetitor(empty, caller, { website_url: "http://10.0.0.1/" }, NOW, undefined),
    );
    expect(ip).toBeInstanceOf(InvalidInput);
    expect((ip as InvalidInput).field).toBe("website_url");
    const long = refusal(() =>
      decideAddCompetitor(
        empty,
        caller,
        { website_url: "globex.example", name: "x".repeat(201) },
        NOW,
        undefined,
      ),
    );
    expect((long as InvalidInput).field).toBe("name");
  });
});

describe("rename and remove", () => {
  test("rename: CompetitorRenamed with the tidied name; the same name changes nothing; unknown is not_found", () => {
    const comp = competitor({ id: 3 });
    const out = decideRenameCompetitor(comp, caller, { competitor_id: 3, name: "  Globex   Corp " });
    expect(out.events).toEqual([
      {
        type: "CompetitorRenamed",
        orgId: 7,
        streamType: "competitor",
        streamId: "3",
        data: { id: 3, name: "Globex Corp" },
      },
    ]);
    expect(decideRenameCompetitor(comp, caller, { competitor_id: 3, name: "Globex" })).toEqual({
      events: [],
      result: { id: 3, renamed: false },
    });
    expect(
      (
        refusal(() =>
          decideRenameCompetitor(undefined, caller, { competitor_id: 3, name: "X" }),
        ) as DomainError
      ).code,
    ).toBe("not_found");
    // The name is checked before the competitor is looked at.
    expect(
      refusal(() => decideRenameCompetitor(undefined, caller, { competitor_id: 3, name: "   " })),
    ).toBeInstanceOf(InvalidInput);
  });

  test("remove: CompetitorRemoved for a core competitor; horizon is invalid_argument, unknown not_found", () => {
    const out = decideRemoveCompetitor({ comp: competitor({ id: 3 }), org: org("starter") }, caller, NOW);
    expect(out.events).toEqual([
      {
        type: "CompetitorRemoved",
        orgId: 7,
        streamType: "competitor",
        streamId: "3",
        data: { id: 3, removed_at: NOW.toISOString() },
      },
    ]);
    expect(out.result).toEqual({ id: 3, name: "Globex", website_url: "https://globex.example/" });
    const horizon = refusal(() =>
      decideRemoveCompetitor(
        { comp: competitor({ id: 3, watch: "horizon" }), org: org("starter") },
        caller,
        NOW,
      ),
    ) as DomainError;
    expect(horizon.code).toBe("invalid_argument");
    expect(horizon.message).toContain("remove_competitor");
    expect(
      (
        refusal(() =>
          decideRemoveCompetitor({ comp: undefined, org: org("starter") }, caller, NOW),
        ) as DomainError
      ).code,
    ).toBe("not_found");
  });
});

describe("monitored pages", () => {
  const comp = competitor({ id: 3 });
  const page = (id: number, path: string) => ({
    id,
    url: `https://globex.example${path}`,
    url_key: `globex.example${path}`,
  });

  test("add: MonitoredPageAdded with the pre-allocated id and the URL's key; render kept", () => {
    const st = { comp, org: org("starter"), pages: [page(20, "/pricing")] };
    const out = decideAddMonitoredPage(
      st,
      caller,
      { competitor_id: 3, url: "https://Globex.example/changelog/#top", render: true },
      NOW,
      30,
    );
    expect(out.events).toEqual([
      {
        type: "MonitoredPageAdded",
        orgId: 7,
        streamType: "competitor",
        streamId: "3",
        data: {
          id: 30,
          competitor_id: 3,
          url: "https://globex.example/changelog/",
          url_key: "globex.example/changelog",
          added_at: NOW.toISOString(),
          render: true,
        },
      },
    ]);
    expect(out.result).toEqual({
      competitor_id: 3,
      page: { id: 30, url: "https://globex.example/changelog/", added_at: NOW.toISOString(), render: true },
      limit: 10,
    });
  });

  test("add refusals: the same page again, the 11th page, a horizon competitor", () => {
    const dup = refusal(() =>
      decideAddMonitoredPage(
        { comp, org: org("starter"), pages: [page(20, "/pricing")] },
        caller,
        { competitor_id: 3, url: "http://www.globex.example/pricing/" },
        NOW,
        30,
      ),
    ) as DomainError;
    expect([dup.code, dup.extra]).toEqual(["conflict", { page_id: 20 }]);
    const ten = Array.from({ length: 10 }, (_, i) => page(20 + i, `/p${i}`));
    const full = refusal(() =>
      decideAddMonitoredPage(
        { comp, org: org("growth"), pages: ten },
        caller,
        { competitor_id: 3, url: "globex.example/new" },
        NOW,
        30,
      ),
    ) as DomainError;
    expect(full.code).toBe("limit_reached");
    expect(full.extra).toEqual({
      limit: "monitored_pages_per_competitor",
      allowed: 10,
      used: 10,
      plan: "growth",
    });
    const horizon = refusal(() =>
      decideAddMonitoredPage(
        { comp: competitor({ id: 3, watch: "horizon" }), org: org("starter"), pages: [] },
        caller,
        { competitor_id: 3, url: "globex.example/new" },
        NOW,
        30,
      ),
    ) as DomainError;
    expect(horizon.code).toBe("invalid_argument");
  });

  test("remove: MonitoredPageRemoved for the page found; exactly one of page_id and url; unknown page", () => {
    const found = { id: 20, url: "https://globex.example/pricing", added_at: "2026-02-01T00:00:00.000Z" };
    const out = decideRemoveMonitoredPage(
      { comp, org: org("starter"), page: found },
      caller,
      { competitor_id: 3, page_id: 20 },
      NOW,
    );
    expect(out.events).toEqual([
      {
        type: "MonitoredPageRemoved",
        orgId: 7,
        streamType: "competitor",
        streamId: "3",
        data: { id: 20, competitor_id: 3, removed_at: NOW.toISOString() },
      },
    ]);
    expect(out.result).toEqual({ competitor_id: 3, page: found });
    const both = refusal(() =>
      decideRemoveMonitoredPage(
        { comp, org: org("starter"), page: found },
        caller,
        { competitor_id: 3, page_id: 20, url: found.url },
        NOW,
      ),
    );
    expect([both instanceof InvalidInput, (both as InvalidInput).field]).toEqual([true, "url"]);
    expect(
      (
        refusal(() =>
          decideRemoveMonitoredPage(
            { comp, org: org("starter"), page: found },
            caller,
            { competitor_id: 3 },
            NOW,
          ),
        ) as InvalidInput
      ).field,
    ).toBe("page_id");
    const missing = refusal(() =>
      decideRemoveMonitoredPage(
        { comp, org: org("starter"), page: undefined },
        caller,
        { competitor_id: 3, url: "globex.example/x" },
        NOW,
      ),
    ) as DomainError;
    expect([missing.code, missing.message]).toEqual([
      "not_found",
      "No monitored page with that url on Globex.",
    ]);
    expect(
      (
        refusal(() =>
          decideRemoveMonitoredPage(
            { comp: undefined, org: org("starter"), page: undefined },
            caller,
            { competitor_id: 3, page_id: 1 },
            NOW,
          ),
        ) as DomainError
      ).code,
    ).toBe("not_found");
  });
});

test("the paid-only commands are refused on trial and free plans by their deciders, before anything else", () => {
  const comp = competitor({ id: 3 });
  for (const plan of ["trial", "free"]) {
    const refusals = [
      () => decideRemoveCompetitor({ comp: undefined, org: org(plan) }, caller, NOW),
      () =>
        decideAddMonitoredPage(
          { comp, org: org(plan), pages: [] },
          caller,
          { competitor_id: 3, url: "not a url" },
          NOW,
          30,
        ),
      () =>
        decideRemoveMonitoredPage(
          { comp, org: org(plan), page: undefined },
          caller,
          { competitor_id: 3, page_id: 1 },
          NOW,
        ),
    ].map((decide) => refusal(decide) as DomainError);
    for (const r of refusals) {
      expect([r.code, r.extra.plan_needed, r.extra.plan]).toEqual(["plan_required", "starter", plan]);
      expect(r.message).toContain("needs a paid plan (Starter or higher)");
    }
  }
});
