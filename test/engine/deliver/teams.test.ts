// Microsoft Teams delivery: a finished cycle's findings as an Adaptive Card (1.5, in a message attachment) to a
// Teams Workflows webhook — here a listener on loopback (through RIVALS_FETCH_REWRITE) that checks the card's
// shape as a Teams workflow reads it and refuses one that is not a card; text is plain TextRuns, with the
// card's date functions defused; the monitoring page connects Teams and sends its test card.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { run } from "../../../src/cli/commands.ts";
import { connectChat } from "../../../src/domain/chat.ts";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { composeTeams } from "../../../src/engine/deliver/compose.ts";
import type { CycleWeb } from "../../support/engine-cycle-web.ts";
import {
  addResearched,
  type FixtureWorkspace,
  startFixtureWorkspace,
  teamPrice,
} from "../../support/fixture-workspace.ts";
import type { TestServer } from "../../support/helpers.ts";
import { formValues, member, parseForms, signedIn } from "../../support/oauth-helpers.ts";

setDefaultTimeout(60_000);

type Obj = Record<string, unknown>;

/** What the card must be for a Teams workflow to post it; the problems found (none: a valid card). */
function cardProblems(msg: Obj): string[] {
  const p: string[] = [];
  const isUrl = (u: unknown) => typeof u === "string" && /^https?:\/\//.test(u);
  if (msg.type !== "message") p.push("type must be message");
  const att = msg.attachments as Obj[] | undefined;
  if (!Array.isArray(att) || att.length !== 1) return [...p, "one attachment"];
  if (att[0].contentType !== "application/vnd.microsoft.card.adaptive") p.push("contentType");
  const card = att[0].content as Obj;
  if (card?.type !== "AdaptiveCard") p.push("content.type");
  if (!["1.4", "1.5"].includes(String(card?.version))) p.push("version 1.4 or 1.5");
  if (!Array.isArray(card?.body) || (card.body as Obj[]).length === 0) p.push("body");
  for (const el of (card?.body as Obj[]) ?? []) {
    if (el.type !== "RichTextBlock") p.push(`unexpected element ${String(el.type)}`);
    for (const r of (el.inlines as Obj[]) ?? []) {
      if (r.type !== "TextRun" || typeof r.text !== "string") p.push("inline must be a TextRun with text");
      if (String(r.text).includes("{{")) p.push("a date function in text");
      const a = r.selectAction as Obj | undefined;
      if (a && (a.type !== "Action.OpenUrl" || !isUrl(a.url))) p.push("selectAction");
    }
  }
  for (const a of (card?.actions as Obj[]) ?? [])
    if (a.type !== "Action.OpenUrl" || !isUrl(a.url) || typeof a.title !== "string") p.push("action");
  return p;
}

const received: Obj[] = [];
const listener = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const json = (await req.json()) as Obj;
    const problems = cardProblems(json);
    if (problems.length) return Response.json({ error: problems }, { status: 400 });
    received.push(json);
    return new Response(null, { status: 202 });
  },
});

describe("the card", () => {
  test("site text is plain TextRuns, date functions defused, links to the signals", () => {
    const msg = composeTeams(
      "Acme {{DATE(2026-01-01T00:00:00Z)}}",
      [
        {
          id: 7,
          competitor: "Globex **Inc**",
          title: "Price to $69 [see](https://evil.example)",
          severity: "high",
        },
        { id: 8, competitor: "Globex", title: "Plan <b>Pro</b> added", severity: "low" },
      ],
      "https://rivals.example",
    ) as unknown as Obj;
    expect(cardProblems(msg)).toEqual([]);
    const text = JSON.stringify(msg);
    expect(text).toContain("Acme {\u200b{DATE");
    expect(text).toContain("Price to $69 [see](https://evil.example)"); // shown as written: TextRun, no Markdown
    expect(text).toContain('"url":"https://rivals.example/app/signals/7"');
    expect(text).not.toContain('"url":"https://evil.example');
  });
});

let w: FixtureWorkspace;
let web: CycleWeb;
let t: TestServer;
let orgId: number;
let call: FixtureWorkspace["call"];
const TEAMS = "https://prod-00.westus.logic.azure.com/workflows/abc/triggers/manual/paths/invoke";

beforeAll(async () => {
  w = await startFixtureWorkspace({
    rewrite: `https://prod-00.westus.logic.azure.com=http://127.0.0.1:${listener.port}`,
  });
  ({ web, t, orgId, call } = w);
  await addResearched(w, "https://globex.example");
});
afterAll(async () => {
  await w.stop();
  listener.stop(true);
});

describe("delivery", () => {
  test("teams needs a Teams connection; then a cycle's findings arrive as one card", async () => {
    const refused = await call("set_delivery_channels", { teams: true });
    expect(refused.error.code).toBe("chat_not_connected");
    expect(refused.error.missing).toEqual(["teams_connection"]);
    await connectChat(t.services.store, "acme", TEAMS, {}, [], "teams");
    const set = await call("set_delivery_channels", { teams: true, email: false });
    expect(set).toMatchObject({ teams: true, teams_connected: true, slack: false, changed: true });
    t.clock.advance(3_600_000);
    web.set("globex.example", "/pricing", {
      transform: teamPrice("59", "69"),
    });
    const s = await runCycle(t.services, orgId, { trigger: "operator" });
    expect(s.signals_created).toBe(1);
    expect(s.deliveries).toBe(1);
    expect(received).toHaveLength(1);
    const card = JSON.stringify(received[0]);
    expect(card).toContain("1 new signal");
    expect(card).toContain(`${t.base}/app/signals/`);
    const st = await call("get_delivery_settings");
    expect(st.delivery_status.teams.pending).toBe(0);
    expect(st.delivery_status.teams.last_success_at).toBe(t.clock.now.toISOString());
  });

  test("the monitoring page shows Teams, sends its test card and disconnects", async () => {
    const ann = await signedIn(t, await member(t, "acme", "admin"));
    let html = await (await ann.request("/app/settings/monitoring?org=acme")).text();
    expect(html).toContain("Microsoft Teams");
    const testForm = parseForms(html).find((f) => f.action.endsWith("/teams/test"))!;
    const res = await ann.post(testForm.action, formValues(testForm));
    expect(res.status).toBe(200);
    expect(await res.text()).toContain("the Teams webhook answered 202");
    expect(received).toHaveLength(2);
    html = await (await ann.request("/app/settings/monitoring?org=acme")).text();
    const off = parseForms(html).find((f) => f.action.endsWith("/teams/disconnect"))!;
    const gone = await ann.post(off.action, formValues(off));
    expect(gone.status).toBe(303);
    const st = await call("get_delivery_settings");
    expect(st).toMatchObject({ teams: false, teams_connected: false });
    expect(st.notes.join(" ")).toContain("Microsoft Teams delivery is switched on but inactive");
  });

  test("rivals org connect-chat --provider teams connects Teams; another provider is a usage error", async () => {
    const prev = process.env.RIVALS_DB;
    process.env.RIVALS_DB = `file:${t.dir}/rivals.db`;
    const write = process.stdout.write.bind(process.stdout);
    const lines: string[] = [];
    process.stdout.write = ((x: string) => {
      lines.push(String(x));
      return true;
    }) as typeof process.stdout.write;
    try {
      expect(
        await run(["org", "connect-chat", "--org", "acme", "--webhook", TEAMS, "--provider", "teams"]),
      ).toBe(0);
      await expect(
        run(["org", "connect-chat", "--org", "acme", "--webhook", TEAMS, "--provider", "skype"]),
      ).rejects.toThrow("--provider is slack or teams");
    } finally {
      process.stdout.write = write;
      if (prev === undefined) delete process.env.RIVALS_DB;
      else process.env.RIVALS_DB = prev;
    }
    expect(JSON.parse(lines[0])).toMatchObject({ org: "acme", teams_connected: true });
    const st = await call("get_delivery_settings");
    expect(st).toMatchObject({ teams_connected: true, chat_connected: false });
  });
});
