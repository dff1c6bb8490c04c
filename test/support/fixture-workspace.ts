// The world the delivery and monitoring tests share: workspace "acme" on a test server over the fixture web (receivers of
// Slack, Teams or webhooks reached through RIVALS_FETCH_REWRITE), an MCP client, an SMTP server when mail is
// part of the test, and Globex researched as the operator so a cycle can find its planted changes.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { handle } from "../../events/command.ts";
import { addCompetitor } from "../../src/domain/watchlist.ts";
import { startResearch } from "../../src/engine/research/runner.ts";
import type { Services } from "../../src/services.ts";
import { type CycleWeb, startCycleWeb } from "./engine-cycle-web.ts";
import { startTestServer, type TestServer } from "./helpers.ts";
import { body, mcpClient } from "./mcp-helpers.ts";
import { startSmtp, type TestSmtp } from "./smtp-helpers.ts";

export interface FixtureWorkspace {
  web: CycleWeb;
  t: TestServer;
  acme: Client;
  orgId: number;
  /** Present when the world was started with `smtp: true`. */
  smtp?: TestSmtp;
  /** Calls an MCP tool as acme and answers its parsed body. */
  call(name: string, args?: Record<string, unknown>): Promise<any>;
  stop(): Promise<void>;
}

export async function startFixtureWorkspace(
  o: { rewrite?: string; smtp?: boolean } = {},
): Promise<FixtureWorkspace> {
  const web = startCycleWeb();
  const smtp = o.smtp ? await startSmtp() : undefined;
  const t = await startTestServer({
    RIVALS_FETCH_REWRITE: [o.rewrite, web.rewrite].filter(Boolean).join(","),
    RIVALS_FETCH_DELAY_MS: "0",
    ...(smtp ? { RIVALS_SMTP_URL: smtp.url } : {}),
  });
  const orgId = (await t.org("acme")).id;
  const acme = await mcpClient(t.base, await t.key("acme"));
  return {
    web,
    t,
    acme,
    orgId,
    smtp,
    call: async (name, args = {}) => body(await acme.callTool({ name, arguments: args })),
    stop: async () => {
      await t.close();
      await web.stop();
      await smtp?.close();
    },
  };
}

/** Adds a competitor through add_competitor and researches it as the operator (no allowance); its id. */
export async function addResearched(w: FixtureWorkspace, websiteUrl: string): Promise<number> {
  const id: number = (await w.call("add_competitor", { website_url: websiteUrl })).competitor.id;
  await researchAsOperator(w.t.services, w.orgId, id);
  return id;
}

/** Researches one competitor as the operator (no allowance) and fails unless the run finished. */
export async function researchAsOperator(s: Services, orgId: number, competitorId: number): Promise<void> {
  const { done } = await startResearch(
    s,
    { orgId, actor: "operator" },
    { kind: "one", competitor_id: competitorId },
    "operator",
    { usesAllowance: false },
  );
  const [report] = await done;
  if (report?.status !== "finished") throw new Error(`research of ${competitorId} ended ${report?.status}`);
}

/** A planted change on globex.example/pricing: the Team plan's price from one amount to another. */
export const teamPrice = (from: string, to: string) => (b: string) =>
  b
    .replace(`<span class="amount">$${from}</span>`, `<span class="amount">$${to}</span>`)
    .replace(`Team is $${from}`, `Team is $${to}`)
    .replace(`"price": "${from}.00"`, `"price": "${to}.00"`);

/** An imported daily digest of acme's (import NDJSON), the n-th of a series: a webhook's digest.generated. */
export const importedDigest = (n: number) => ({
  kind: "digest",
  org: "acme",
  key: `d-${n}`,
  slug: `day-${n}`,
  type: "daily_digest",
  status: "generated",
  title: `Day ${n}`,
  coverage_period_start: "2026-11-19T00:00:00Z",
  coverage_period_end: "2026-11-20T00:00:00Z",
  generated_at: "2026-11-20T06:00:00Z",
  markdown: `# Day ${n}`,
});

/** A Slack incoming webhook on loopback for hooks.slack.com/services/T0/B0/secret: what it received; it answers
 * 500 while `failing`. */
export interface SlackHook {
  origin: string;
  received: { blocks: { type: string; text?: { text: string } }[]; text: string }[];
  failing: boolean;
  stop(): Promise<void>;
}

export function startSlackHook(): SlackHook {
  const hook: SlackHook = { origin: "", received: [], failing: false, stop: async () => {} };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      if (req.method !== "POST" || new URL(req.url).pathname !== "/services/T0/B0/secret")
        return new Response("no", { status: 404 });
      if (hook.failing) return new Response("upstream trouble", { status: 500 });
      hook.received.push(await req.json());
      return new Response("ok");
    },
  });
  hook.origin = `http://127.0.0.1:${server.port}`;
  hook.stop = async () => server.stop(true);
  return hook;
}

/** Adds a competitor for each fixture site to a workspace and researches the watchlist as the operator (no
 * allowance), failing unless every run finished; each site's competitor id. */
export async function researchSites(
  s: Services,
  orgId: number,
  sites: readonly string[],
): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const site of sites) {
    const { result } = await s.store.execute(
      (w) => handle(addCompetitor, w, { orgId, actor: "operator" }, { website_url: `https://${site}` }),
      { actor: "operator" },
    );
    ids.set(site, result.id);
  }
  const started = await startResearch(s, { orgId, actor: "operator" }, { kind: "watchlist" }, "operator", {
    usesAllowance: false,
  });
  const statuses = (await started.done).map((r) => r.status);
  if (statuses.some((x) => x !== "finished")) throw new Error(`research ended ${statuses.join(", ")}`);
  return ids;
}
