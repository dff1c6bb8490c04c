// Every text a person reads after the fixture web's cycles (v1 → v2, the planted changes → v3, noise), read the
// way a person reads it and checked by test/support/prose-check.ts: signal titles, summaries and evidence as
// stored, the feed, every signal page and every competitor page over HTTP, and the tools' answers over MCP.
// None may carry a masking placeholder, a domain cut at its dot, a doubled word, "Labs's", a wrong "a"/"an",
// a raw slug or an ISO timestamp, nor a summary a bare URL at its end. Real servers on loopback, the real
// research run and cycle, the official MCP SDK client.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { handle } from "../../events/command.ts";
import { BOARD_SITES } from "../../fixtures/web/planted.ts";
import { type FixtureWeb, startFixtureWeb } from "../../fixtures/web/server.ts";
import { createSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import { addCompetitor } from "../../src/domain/watchlist.ts";
import { runCycle } from "../../src/engine/cycle/run.ts";
import { composeEmail, composeSlack } from "../../src/engine/deliver/compose.ts";
import { researchIdle, startResearch } from "../../src/engine/research/runner.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { expectProse, type ProseOptions, proseProblems, visibleText } from "../support/prose-check.ts";

setDefaultTimeout(180_000);

const SITES = [
  "globex.example",
  "brightloop.example",
  "quantive.example",
  "northwind.example",
  ...BOARD_SITES,
  "halcyon.example",
  "parcelhub.example",
];

type Text = { where: string; text: string; opts?: ProseOptions };

let web: FixtureWeb;
let t: TestServer;
let orgId: number;
let cookie: string;
const competitors: number[] = [];

beforeAll(async () => {
  web = startFixtureWeb({ version: 1 });
  t = await startTestServer({ RIVALS_FETCH_REWRITE: web.rewrite, RIVALS_FETCH_DELAY_MS: "0" });
  orgId = (await t.org("acme")).id;
  for (const site of SITES) {
    const { result } = await t.services.store.execute(
      (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: `https://${site}` }),
      { actor: "operator" },
    );
    competitors.push(result.id);
  }
  // Imported history with another tool's names, one of them reporting Brightloop's Series B at another amount.
  const keys = await t.services.database.client.execute({
    sql: "SELECT id, key FROM competitors WHERE org_id = ?",
    args: [orgId],
  });
  const keyOf = (i: number) => String(keys.rows.find((r) => Number(r.id) === competitors[i])?.key);
  const imported = await t.load([
    {
      kind: "signal",
      org: "acme",
      key: "brightloop-series-b",
      competitor: keyOf(1),
      title: "Brightloop raises a $32M Series B",
      summary: "The round is led by Northgate Capital.",
      category: "funding",
      type: "funding_round",
      severity: "high",
      first_seen_at: "2026-11-14T09:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "globex-team-price",
      competitor: keyOf(0),
      title: "Globex raises Team plan price by 20%",
      category: "pricing",
      type: "price_change",
      first_seen_at: "2026-10-14T09:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "globex-partners",
      competitor: keyOf(0),
      title: "Globex launches a partner program for agencies",
      summary: "The program page (https://globex.example/partners) lists agencies by region.",
      category: "partnerships",
      type: "partnership",
      first_seen_at: "2026-10-21T09:00:00Z",
    },
    {
      kind: "signal",
      org: "acme",
      key: "brightloop-masking-bug",
      competitor: keyOf(1),
      title: "Brightloop discloses a masking bug",
      category: "security",
      type: "security_incident",
      first_seen_at: "2026-10-20T09:00:00Z",
    },
  ]);
  expect(imported.errors).toEqual([]);
  const started = await startResearch(
    t.services,
    { orgId, actor: "operator" },
    { kind: "watchlist" },
    "operator",
    { usesAllowance: false },
  );
  await started.done;
  await runCycle(t.services, orgId, { trigger: "operator" });
  for (const v of [2, 3] as const) {
    web.setVersion(v);
    t.clock.advance(86_400_000);
    await runCycle(t.services, orgId, { trigger: "operator" });
  }
  const { user_id } = await addMember(t.services.store, {
    org: "acme",
    email: "reader@acme.example",
    role: "admin",
    password: "correct horse battery",
  });
  cookie = (await createSession(t.services, user_id)).cookie.split(";")[0];
});

afterAll(async () => {
  await researchIdle(t.services);
  await t.close();
  await web.stop();
});

async function signals(): Promise<{ id: number; doc: Record<string, any> }[]> {
  const r = await t.services.database.client.execute({
    sql: "SELECT id, doc FROM signals WHERE org_id = ? ORDER BY id",
    args: [orgId],
  });
  return r.rows.map((row) => ({ id: Number(row.id), doc: JSON.parse(String(row.doc)) }));
}

function signalTexts(where: string, s: Record<string, any>): Text[] {
  return [
    { where: `${where} title`, text: String(s.title ?? "") },
    { where: `${where} summary`, text: String(s.summary ?? ""), opts: { summary: true } },
    ...(s.evidence ?? []).map((e: { text?: string }, i: number) => ({
      where: `${where} evidence ${i + 1}`,
      text: String(e.text ?? ""),
    })),
  ];
}

async function page(path: string): Promise<string> {
  const r = await fetch(t.base + path, { headers: { accept: "text/html", cookie }, redirect: "manual" });
  expect(r.status).toBe(200);
  return visibleText(await r.text());
}

test("the checker finds what it is for", () => {
  expect(proseProblems("published on its blog page (https://quantive.example/blog). ⟨date⟩")).toContain(
    "masking placeholder ⟨date⟩",
  );
  expect(proseProblems("(2026-11-27) — example/blog). A strategic partnership").join(" ")).toContain(
    "a domain cut at its dot",
  );
  expect(proseProblems("Brightloop ends its free Free plan")).toEqual(['a doubled word: "free Free"']);
  expect(proseProblems("Quantive Labs's plan")).toEqual(['a possessive written "Labs\'s"']);
  expect(proseProblems("a Enterprise plan")).toEqual(['"a Enterprise" (an Enterprise)']);
  // Separate blocks of a page are separate lines: a word ending one and a word starting the next are no pair.
  expect(proseProblems("Topics: m&a\nEvidence\nEvidence list")).toEqual([]);
  expect(proseProblems("Type: price_increase, every twice_daily")).toHaveLength(2);
  expect(proseProblems("First seen at 2026-11-27T12:00:37.867Z")[0]).toContain("ISO timestamp");
  expect(proseProblems("Globex raised it (https://globex.example/pricing).", { summary: true })).toEqual([
    "a bare URL at the end of a summary",
  ]);
  expect(
    proseProblems(
      "Quantive Labs' Growth plan is $38,000 a year; see quantive.example/blog and https://x.example/a_b, v2.3.1 at 3.5% on 27 Nov 2026, an SDK, a user, an hour.",
      { summary: true },
    ),
  ).toEqual([]);
});

test("signal titles, summaries and evidence read as prose", async () => {
  const all = await signals();
  expect(all.length).toBeGreaterThan(20);
  expectProse(all.flatMap((s) => signalTexts(`signal ${s.id}`, s.doc)));
  // An annual-only plan is written as the page states it, and a site-wide link is one piece of evidence.
  const growth = all.find((s) => s.doc.type === "plan_added" && /Quantive/.test(s.doc.title));
  expect(growth?.doc.title).toContain("$38,000 a year");
  expect(growth?.doc.title).not.toContain("/month");
  // An entry's date line is its date ("published … on <date>"), a press release's dateline not its text; the
  // date is the page's own, where the comparison masked it, written in the product's one style ("18 Nov 2026").
  const press = all.find((s) => s.doc.type === "partnership" && /Fivetran/.test(s.doc.title));
  expect(press?.doc.summary).toContain("on its press page on 18 Nov 2026. Brightloop, the privacy-first");
  expect(press?.doc.summary).not.toContain("BUSINESS WIRE");
  const acquisition = all.find((s) => s.doc.type === "acquisition" && /Lumen/.test(s.doc.title));
  expect(acquisition?.doc.summary).toBe(
    'Quantive published "Quantive acquires Lumen, the open-source metrics catalog" on its blog page on 18 Nov 2026.',
  );
  for (const s of all) {
    const texts = (s.doc.evidence ?? []).map((e: { text: string }) => e.text);
    if (s.doc.type === "page_added" || s.doc.type === "page_removed")
      expect(new Set(texts).size).toBe(texts.length);
  }
});

test("imported history and the engine share one vocabulary; one round at two amounts is shown as a conflict", async () => {
  const all = await signals();
  const byTitle = (t: string) => all.find((s) => s.doc.title === t)?.doc;
  const byTitleId = (t: string) => all.find((s) => s.doc.title === t)?.id;
  expect(byTitle("Brightloop raises a $32M Series B")).toMatchObject({
    category: "company",
    type: "funding",
  });
  expect(byTitle("Globex raises Team plan price by 20%")).toMatchObject({
    category: "pricing",
    type: "price_increase",
  });
  expect(byTitle("Brightloop discloses a masking bug")).toMatchObject({
    category: "legal_security",
    type: "security_incident",
  });
  const engine = all.find((s) => s.doc.type === "funding" && /\$40 million/.test(s.doc.title));
  expect(engine).toBeDefined();
  const signalPage = await page(`/app/signals/${engine!.id}`);
  expect(signalPage).toContain("Sources disagree");
  expect(signalPage).toContain(
    "This signal reports the Series B at $40 million; Brightloop raises a $32M Series B",
  );
  expect(signalPage).toContain("reports $32 million");
  // A summary's address is a link.
  const partners = all.find((s) => s.doc.title === "Globex launches a partner program for agencies")!;
  const html = await (
    await fetch(`${t.base}/app/signals/${partners.id}`, { headers: { accept: "text/html", cookie } })
  ).text();
  expect(html).toContain('<a href="https://globex.example/partners" rel="nofollow noopener noreferrer">');
  expect(partners.doc.category).toBe("company");
  const feed = await page("/app?org=acme");
  const funding = await page("/app?org=acme&type=funding");
  expect(funding).toContain(
    "Sources disagree: Brightloop raises a $32M Series B reports the Series B at $32 million, this one at $40 million.",
  );
  // The dossier says it too, over REST and to the tools: one Series B (the blog's $40 million, read by the
  // cycle) and the conflict the imported signal makes, each size with its page or signal.
  const key = await t.key("acme");
  const rest = await (
    await fetch(`${t.base}/api/v1/competitors/${competitors[1]}`, {
      headers: { authorization: `Bearer ${key}` },
    })
  ).json();
  const dossier = rest.data.reads.funding;
  expect(dossier.rounds.filter((r: { round: string }) => r.round === "Series B")).toHaveLength(1);
  expect(dossier.conflicts).toEqual([
    {
      round: "Series B",
      text: "Sources disagree on the size of the Series B: $40 million or $32 million.",
      claims: [
        expect.objectContaining({
          amount: 40e6,
          source: expect.stringContaining("https://brightloop.example/blog/"),
        }),
        expect.objectContaining({ amount: 32e6, signal_id: byTitleId("Brightloop raises a $32M Series B") }),
      ],
    },
  ]);
  expectProse([{ where: "the dossier's conflict", text: dossier.conflicts[0].text }]);
  const tool = body(
    await (await mcpClient(t.base, key)).callTool({
      name: "get_competitor",
      arguments: { competitor_id: competitors[1] },
    }),
  );
  expect(tool.competitor.reads.funding.conflicts).toEqual(dossier.conflicts);
  // The competitor page says it once, in the dossier's funding section.
  const brightloopPage = await page(`/app/competitors/${competitors[1]}?org=acme`);
  expect(
    brightloopPage.split("Sources disagree on the size of the Series B: $40 million or $32 million."),
  ).toHaveLength(2);
  // The feed's filters offer each name once.
  const types = [...feed.matchAll(/Price increase/g)];
  expect(types.length).toBeGreaterThan(0);
  expect(feed).not.toContain("Price change");
  expect(feed).not.toContain("Funding round");
});

test("the feed, every signal page and every competitor page read as prose", async () => {
  const texts: Text[] = [];
  for (const path of [
    "/app?org=acme",
    "/app/competitors?org=acme",
    "/app/compare?org=acme",
    "/app/digests?org=acme",
    "/app/battlecards?org=acme",
    "/app/settings/monitoring?org=acme",
    "/app/start?org=acme",
  ])
    texts.push({ where: path, text: await page(path) });
  for (const s of await signals())
    texts.push({ where: `signal page ${s.id}`, text: await page(`/app/signals/${s.id}`) });
  for (const id of competitors)
    texts.push({ where: `competitor page ${id}`, text: await page(`/app/competitors/${id}`) });
  expectProse(texts);
});

test("the tools' answers read as prose (search_signals, get_competitor)", async () => {
  const key = await t.key("acme");
  const client = await mcpClient(t.base, key);
  try {
    const found = body(await client.callTool({ name: "search_signals", arguments: { limit: 50 } }));
    expect(found.signals.length).toBeGreaterThan(20);
    const texts: Text[] = found.signals.flatMap((s: Record<string, unknown>) =>
      signalTexts(`search_signals ${s.id}`, s),
    );
    for (const id of competitors) {
      const c = body(await client.callTool({ name: "get_competitor", arguments: { competitor_id: id } }));
      texts.push(...proseFields(`get_competitor ${id}`, c));
    }
    expectProse(texts);
  } finally {
    await client.close();
  }
});

test("the new-signal email and chat message read as prose", async () => {
  const list = (await signals()).map((x) => ({
    id: x.id,
    competitor: String(x.doc.competitor_name ?? ""),
    title: String(x.doc.title),
    severity: x.doc.severity,
    source_url: x.doc.evidence?.[0]?.source_url,
  }));
  const mail = composeEmail("Acme Labs", list, t.base);
  const chat = composeSlack("Acme Labs", list, t.base);
  expect(mail.text).toContain("on Acme Labs' competitors");
  // Each line of the plain-text mail without its links (an address on its own line is the mail's link).
  const lines = mail.text.split("\n").filter((l) => !/^\s*(?:Source: )?https?:\/\//.test(l));
  expectProse([
    { where: "email subject", text: mail.subject },
    { where: "email text", text: lines.join("\n") },
    { where: "email html", text: visibleText(mail.html) },
    // A chat block's text, its links (<url|label>) read as their labels.
    ...chat.blocks.flatMap((b, i) =>
      [
        (b.text as { text?: string } | undefined)?.text,
        ...((b.elements as { text: string }[] | undefined) ?? []).map((e) => e.text),
      ]
        .filter((x): x is string => typeof x === "string")
        .map((x) => ({ where: `chat block ${i}`, text: x.replace(/<[^|>]+\|([^>]+)>/g, "$1") })),
    ),
  ]);
});

/** The prose of a tool's answer: every string under a key a person reads (text, summary, title,
 * description, note …); identifiers, enum values and timestamps under other keys are data. */
function proseFields(where: string, v: unknown, key = ""): Text[] {
  if (typeof v === "string")
    return /^(?:text|summary|title|description|note|excerpt|headline|subheadline|tagline|statement|reason)$/.test(
      key,
    )
      ? [{ where: `${where} ${key}`, text: v }]
      : [];
  if (Array.isArray(v)) return v.flatMap((x) => proseFields(where, x, key));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => proseFields(`${where}`, x, k));
  return [];
}
