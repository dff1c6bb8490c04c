// Signal writing (src/engine/write/signals.ts, src/domain/signalDetection.ts): drafts from the classifier
// become signals in the same read table imported signals use — dedup across sources and cycles, revert,
// supersede, TTL, REST, export → import and rebuild. Real libSQL file, real server on loopback.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { READ_TABLES } from "../../../projections/index.ts";
import { rebuildProjections } from "../../../projections/rebuild.ts";
import { exportNdjson } from "../../../src/domain/exports.ts";
import { importNdjson } from "../../../src/domain/imports.ts";
import { classify } from "../../../src/engine/classify/index.ts";
import type { Change } from "../../../src/engine/compare/types.ts";
import { closeExpiredSignals, recordDrafts } from "../../../src/engine/write/signals.ts";
import { startTestServer, type TestServer } from "../../support/helpers.ts";

type Obj = Record<string, unknown>;
const ORG = "globex-watch";
const SITE = "https://globex.example";

async function getJson(t: TestServer, path: string, key: string) {
  const r = await t.get(path, { authorization: `Bearer ${key}` });
  return { status: r.status, body: (await r.json()) as Obj & { data: unknown } };
}

function ctx(competitorId: number, pageKind: string, observedAt: string, pageTitle?: string) {
  return { competitor: { id: competitorId, name: "Globex" }, pageKind, pageTitle, observedAt };
}

const price = (before: number, after: number): Change => ({
  kind: "plan_price_changed",
  source: "page",
  url: `${SITE}/pricing`,
  subject: "Team",
  before: `$${before} per seat/month`,
  after: `$${after} per seat/month`,
  excerpt: `Team: $[-${before}][+${after}] per seat/month`,
  price: {
    before: { price: before, currency: "USD", period: "month", unit: "seat" },
    after: { price: after, currency: "USD", period: "month", unit: "seat" },
    delta: Math.round(((after - before) / before) * 10000) / 10000,
  },
});

const launchChanges = {
  blog: [
    {
      kind: "text_added",
      source: "page",
      url: `${SITE}/blog`,
      subject: "Introducing Flows: visual automation for every team",
      before: null,
      after: "Introducing Flows: visual automation for every team",
      excerpt: "[+Introducing Flows: visual automation for every team]",
    },
    {
      kind: "text_added",
      source: "page",
      url: `${SITE}/blog`,
      subject: "Introducing Flows: visual automation for every team",
      section: "Introducing Flows: visual automation for every team",
      before: null,
      after: "Today we launch Flows, a drag-and-drop builder for automations.",
      excerpt: "[+Today we launch Flows, a drag-and-drop builder for automations.]",
    },
  ] as Change[],
  changelog: [
    {
      kind: "text_added",
      source: "page",
      url: `${SITE}/changelog`,
      subject: "v4.2.0 — Flows is now generally available",
      before: null,
      after: "v4.2.0 — Flows is now generally available",
      excerpt: "[+v4.2.0 — Flows is now generally available]",
    },
  ] as Change[],
  feed: [
    {
      kind: "feed_item_added",
      source: "feed",
      url: `${SITE}/blog/rss.xml`,
      subject: "Introducing Flows",
      before: null,
      after: "Introducing Flows",
      excerpt: "Introducing Flows — Build automations visually.",
      context: "Build automations visually.",
      link: `${SITE}/blog/introducing-flows`,
    },
  ] as Change[],
};

describe("engine signals", () => {
  let t: TestServer;
  let key: string;
  let cid: number;
  let orgId: number;

  beforeAll(async () => {
    t = await startTestServer();
    orgId = (await t.org(ORG)).id;
    key = await t.key(ORG);
    const r = await t.load([
      { kind: "competitor", org: ORG, key: "globex", name: "Globex", website_url: SITE },
    ]);
    expect(r.errors).toEqual([]);
    cid = Number(
      (await t.services.database.client.execute("SELECT id FROM competitors WHERE key = 'globex'")).rows[0]
        .id,
    );
  });
  afterAll(() => t.close());

  test("one launch on blog, changelog and feed is one signal with three evidence items", async () => {
    const at = "2026-11-20T12:00:00.000Z";
    const drafts = [
      ...classify(launchChanges.blog, ctx(cid, "blog", at, "Globex blog")),
      ...classify(launchChanges.changelog, ctx(cid, "changelog", at, "Changelog")),
      ...classify(launchChanges.feed, ctx(cid, "feed", at)),
    ];
    expect(drafts).toHaveLength(3);
    // First cycle: the blog post alone; the next cycle brings the changelog and the feed.
    const first = await recordDrafts(t.services, orgId, cid, drafts.slice(0, 1), at);
    expect(first.created).toHaveLength(1);
    const later = "2026-11-21T12:00:00.000Z";
    const second = await recordDrafts(t.services, orgId, cid, drafts.slice(1), later);
    expect(second).toEqual({ created: [], updated: first.created, closed: [] });
    const s = await getJson(t, `/api/v1/signals/${first.created[0]}`, key);
    expect(s.status).toBe(200);
    const sig = s.body.data as Obj;
    expect(sig.title).toBe("Globex launches Flows");
    expect(sig.category).toBe("product");
    expect(sig.type).toBe("feature_launch");
    expect(sig.status).toBe("open");
    expect(sig.first_seen_at).toBe(at);
    expect(sig.last_seen_at).toBe(later);
    const ev = sig.evidence as Obj[];
    expect(ev.map((e) => e.source_url)).toEqual([
      `${SITE}/blog`,
      `${SITE}/changelog`,
      `${SITE}/blog/introducing-flows`,
    ]);
    expect(ev[0].observed_at).toBe(at);
    expect(ev[0].source_title).toBe("Globex blog");
    expect(String(ev[0].text)).toContain("Flows");
    expect(sig.confidence).toBeGreaterThan(0.75);
    // Recording the same drafts again changes nothing.
    const events = async () =>
      Number((await t.services.database.client.execute("SELECT count(*) AS n FROM events")).rows[0].n);
    const n = await events();
    expect(await recordDrafts(t.services, orgId, cid, drafts, later)).toEqual({
      created: [],
      updated: [],
      closed: [],
    });
    expect(await events()).toBe(n);
    // The list and search see it like an imported signal.
    const list = await getJson(t, `/api/v1/signals?competitor_id=${cid}`, key);
    expect((list.body.data as Obj[]).map((x) => x.id)).toContain(first.created[0]);
    const found = await getJson(t, "/api/v1/signals?q=Flows", key);
    expect((found.body.data as Obj[]).map((x) => x.id)).toEqual(first.created);
  });

  test("the same three sources in one cycle give one signal too", async () => {
    const at = "2026-11-20T13:00:00.000Z";
    const other = (c: Change[]) =>
      c.map((x) => ({
        ...x,
        subject: x.subject.replace("Flows", "Canvas"),
        after: x.after?.replace("Flows", "Canvas") ?? null,
        section: x.section?.replace("Flows", "Canvas"),
        link: x.link?.replace("flows", "canvas"),
      }));
    const drafts = [
      ...classify(other(launchChanges.feed), ctx(cid, "feed", at)),
      ...classify(other(launchChanges.changelog), ctx(cid, "changelog", at)),
      ...classify(other(launchChanges.blog), ctx(cid, "blog", at)),
    ];
    const r = await recordDrafts(t.services, orgId, cid, drafts, at);
    expect(r.created).toHaveLength(1);
    const sig = (await getJson(t, `/api/v1/signals/${r.created[0]}`, key)).body.data as Obj;
    expect(sig.title).toBe("Globex launches Canvas");
    expect(sig.evidence as Obj[]).toHaveLength(3);
  });

  test("a price change, then a supersede, then a revert", async () => {
    const t1 = "2026-11-20T14:00:00.000Z";
    const d1 = classify([price(49, 59)], ctx(cid, "pricing", t1, "Pricing"));
    expect(d1[0].title).toBe("Globex raises Team plan price from $49 to $59 per seat/month (+20%)");
    const r1 = await recordDrafts(t.services, orgId, cid, d1, t1);
    expect(r1.created).toHaveLength(1);
    // Seen again on another page (same value): evidence appended, not a new signal.
    const again = classify([{ ...price(49, 59), url: `${SITE}/` }], ctx(cid, "home", t1));
    const ra = await recordDrafts(t.services, orgId, cid, again, "2026-11-20T15:00:00.000Z");
    expect(ra).toEqual({ created: [], updated: r1.created, closed: [] });
    // Changed again: the old one closes (superseded), a new one opens.
    const t2 = "2026-11-22T14:00:00.000Z";
    const r2 = await recordDrafts(
      t.services,
      orgId,
      cid,
      classify([price(59, 69)], ctx(cid, "pricing", t2)),
      t2,
    );
    expect(r2.closed).toEqual(r1.created);
    expect(r2.created).toHaveLength(1);
    const old = (await getJson(t, `/api/v1/signals/${r1.created[0]}`, key)).body.data as Obj;
    expect(old.status).toBe("closed");
    const now = (await getJson(t, `/api/v1/signals/${r2.created[0]}`, key)).body.data as Obj;
    expect(now.title).toBe("Globex raises Team plan price from $59 to $69 per seat/month (+17%)");
    expect(now.severity).toBe("high");
    const list = (await getJson(t, `/api/v1/signals?competitor_id=${cid}`, key)).body.data as Obj[];
    expect(list.map((x) => x.id)).not.toContain(r1.created[0]);
    // Back to $59: the open signal is reverted (closed), nothing new opens.
    const t3 = "2026-11-23T14:00:00.000Z";
    const r3 = await recordDrafts(
      t.services,
      orgId,
      cid,
      classify([price(69, 59)], ctx(cid, "pricing", t3)),
      t3,
    );
    expect(r3).toEqual({ created: [], updated: [], closed: r2.created });
    const reverted = (await getJson(t, `/api/v1/signals/${r2.created[0]}`, key)).body.data as Obj;
    expect(reverted.status).toBe("closed");
    expect((reverted.evidence as Obj[]).at(-1)?.text).toContain("$59 per seat/month");
    const reasons = await t.services.database.client.execute({
      sql: "SELECT closed_reason FROM engine_signals WHERE id IN (?, ?) ORDER BY id",
      args: [r1.created[0], r2.created[0]],
    });
    expect(reasons.rows.map((x) => x.closed_reason)).toEqual(["superseded", "reverted"]);
  });

  test("events keep severity and confidence reasons; evidence appends are small events", async () => {
    const r = await t.services.database.client.execute(
      "SELECT type, data FROM events WHERE type IN ('SignalDetected', 'SignalEvidenceAdded') ORDER BY position",
    );
    const detected = r.rows.filter((x) => x.type === "SignalDetected").map((x) => JSON.parse(String(x.data)));
    expect(detected.every((d) => d.severity_reasons.length > 0 && d.confidence_reasons.length > 0)).toBe(
      true,
    );
    const added = r.rows
      .filter((x) => x.type === "SignalEvidenceAdded")
      .map((x) => JSON.parse(String(x.data)));
    expect(added.length).toBeGreaterThan(0);
    for (const a of added) expect(Object.keys(a).sort()).not.toContain("record");
  });

  test("open signals close after RIVALS_SIGNAL_TTL_DAYS without being seen", async () => {
    expect(t.services.config.signalTtlDays).toBe(90);
    const open = async () =>
      (
        await t.services.database.client.execute({
          sql: "SELECT id FROM engine_signals WHERE org_id = ? AND status = 'open' ORDER BY id",
          args: [orgId],
        })
      ).rows.map((x) => Number(x.id));
    const before = await open();
    expect(before.length).toBeGreaterThan(0);
    expect((await closeExpiredSignals(t.services, orgId, "2027-02-17T00:00:00.000Z")).closed).toEqual([]);
    const r = await closeExpiredSignals(t.services, orgId, "2027-02-22T00:00:00.000Z");
    expect(r.closed).toEqual(before);
    expect(await open()).toEqual([]);
    expect((await getJson(t, `/api/v1/signals?competitor_id=${cid}`, key)).body.data).toEqual([]);
  });

  test("export → import into an empty database and a rebuild give the same API and tables", async () => {
    const ids = (await t.services.database.client.execute("SELECT id FROM signals ORDER BY id")).rows.map(
      (x) => Number(x.id),
    );
    const paths = [
      "/api/v1/signals",
      `/api/v1/signals?competitor_id=${cid}`,
      "/api/v1/signals?q=Globex",
      ...ids.map((id) => `/api/v1/signals/${id}`),
      `/api/v1/competitors/${cid}`,
    ];
    const snap = async (s: TestServer, k: string) => {
      const out: Record<string, string> = {};
      for (const p of paths) {
        const r = await getJson(s, p, k);
        delete r.body.request_id;
        out[p] = `${r.status} ${JSON.stringify(r.body).replaceAll(s.base, "{base}")}`;
      }
      return out;
    };
    const dump = async (s: TestServer) => {
      const out: Record<string, unknown[]> = {};
      for (const table of ["signals", "signals_fts", "engine_signals"]) {
        const cols = table.endsWith("_fts") ? "rowid AS rowid, *" : "*";
        out[table] = (
          await s.services.database.client.execute(`SELECT ${cols} FROM ${table} ORDER BY rowid`)
        ).rows.map((row) => ({ ...row }));
      }
      return out;
    };
    // Reopen one signal's worth of history so the list is not empty: a new plan.
    const at = "2027-03-01T00:00:00.000Z";
    const plan: Change = {
      kind: "plan_added",
      source: "page",
      url: `${SITE}/pricing`,
      subject: "Scale",
      before: null,
      after: "Scale: $99 per seat/month",
      excerpt: "Scale: $99 per seat/month",
      price: { after: { price: 99, currency: "USD", period: "month", unit: "seat" } },
      added: ["SSO", "Audit log"],
    };
    const r = await recordDrafts(t.services, orgId, cid, classify([plan], ctx(cid, "pricing", at)), at);
    paths.push(`/api/v1/signals/${r.created[0]}`);
    const before = await snap(t, key);
    const tables = await dump(t);
    expect(JSON.parse(before["/api/v1/signals"].slice(4)).data).toHaveLength(1);

    let text = "";
    await exportNdjson(t.services, undefined, (line) => {
      text += line;
    });
    const u = await startTestServer();
    try {
      const rep = await importNdjson(u.services.store, text);
      expect(rep.errors).toEqual([]);
      // The same API key works: its hash came with the log.
      expect(await snap(u, key)).toEqual(before);
      expect(await dump(u)).toEqual(tables);
      await rebuildProjections(u.services.store);
      expect(await snap(u, key)).toEqual(before);
      expect(await dump(u)).toEqual(tables);
      // New ids stay unique after the import.
      const more = await recordDrafts(
        u.services,
        orgId,
        cid,
        classify([{ ...plan, subject: "Ultra", after: "Ultra: $199" }], ctx(cid, "pricing", at)),
        at,
      );
      expect(more.created[0]).toBeGreaterThan(Math.max(...ids, r.created[0]));
    } finally {
      await u.close();
    }
    await rebuildProjections(t.services.store);
    expect(await snap(t, key)).toEqual(before);
    expect(await dump(t)).toEqual(tables);
    expect(READ_TABLES).toContain("engine_signals");
  });

  test("drafts for a competitor of another workspace are refused", async () => {
    const other = await t.org("someone-else");
    await expect(
      recordDrafts(
        t.services,
        other.id,
        cid,
        classify([price(10, 20)], ctx(cid, "pricing", "2027-03-02T00:00:00Z")),
        "2027-03-02T00:00:00Z",
      ),
    ).rejects.toThrow(/not in workspace/);
  });
});
