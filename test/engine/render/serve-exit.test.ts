// `rivals serve` does not leave its browser behind: a server process (src/main.ts, as `bun start` runs it)
// renders a page built by script, then is stopped with SIGTERM, with SIGINT, or killed outright. Every
// browser process is gone, and so is its profile folder — at once after a signal; after SIGKILL, where
// nothing of the server runs, the browser ends by itself (its DevTools pipe closed) and the folder is
// removed by the next server that starts a browser.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Subprocess } from "bun";
import { type RenderedSite, startRenderedSite } from "../../../fixtures/rendered/site.ts";
import { processTree } from "../../../src/engine/render/memory.ts";
import { runProcess } from "../../e2e/harness.ts";
import { chromiumPath } from "../../support/browser.ts";
import { body, mcpClient } from "../../support/mcp-helpers.ts";

setDefaultTimeout(90_000);

const root = resolve(import.meta.dir, "..", "..", "..");
let dir: string;
let temp: string;
let site: RenderedSite;
let env: Record<string, string>;
let key: string;
let competitorId: number;
let researched = 0;

const cli = async (args: string[], stdin?: string) => {
  const r = await runProcess([process.execPath, "src/main.ts", ...args], { cwd: root, env, stdin });
  if (r.code !== 0) throw new Error(`rivals ${args.join(" ")}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split("\n").pop()!);
};

const profiles = () => readdirSync(temp).filter((n) => n.startsWith("rivals-browser-"));
const isChromium = (pid: number) => {
  try {
    return /chrom/i.test(readFileSync(`/proc/${pid}/cmdline`, "utf8"));
  } catch {
    return false;
  }
};
const alive = (pids: number[]) => pids.filter((p) => existsSync(`/proc/${p}`) && isChromium(p));

async function until(what: string, ok: () => boolean, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!ok()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-serve-exit-"));
  temp = join(dir, "tmp");
  mkdirSync(temp);
  site = startRenderedSite("http://127.0.0.1:9/");
  env = {
    PATH: process.env.PATH ?? "",
    HOME: process.env.HOME ?? dir,
    TMPDIR: temp,
    RIVALS_DB: `file:${join(dir, "rivals.db")}`,
    RIVALS_BROWSER: await chromiumPath(),
    RIVALS_FETCH_REWRITE: site.rewrite,
    RIVALS_FETCH_DELAY_MS: "0",
    RIVALS_SCHEDULER: "off",
    RIVALS_BASE_URL: "http://127.0.0.1",
    PORT: "0",
  };
  await cli(["org", "create", "--slug", "acme", "--name", "Acme", "--plan", "enterprise"]);
  const line = JSON.stringify({
    kind: "competitor",
    org: "acme",
    key: "vantage",
    name: "Vantage",
    website_url: "https://vantage.example",
  });
  await cli(["import", "-"], `${line}\n`);
  key = (await cli(["key", "create", "--org", "acme", "--scopes", "read,write,spend"])).token;
});
afterAll(() => {
  site?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A server with its browser running: research of the competitor renders its pricing page. */
async function serveAndRender(): Promise<{ proc: Subprocess; browsers: number[] }> {
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: root,
    env,
    stdout: "pipe",
    stderr: "ignore",
  });
  const reader = proc.stdout.getReader();
  let out = "";
  let port = 0;
  while (!port) {
    const { done, value } = await reader.read();
    if (done) throw new Error(`the server exited: ${out}`);
    out += new TextDecoder().decode(value);
    port = Number(/"port":(\d+)/.exec(out)?.[1] ?? 0);
  }
  void (async () => {
    while (!(await reader.read()).done);
  })();
  const base = `http://127.0.0.1:${port}`;
  competitorId ??= (
    (await (
      await fetch(`${base}/api/v1/competitors`, { headers: { authorization: `Bearer ${key}` } })
    ).json()) as {
      data: { id: number }[];
    }
  ).data[0].id;
  const mcp = await mcpClient(base, key);
  try {
    // The first research, then a refresh of it (each renders the pricing page).
    const tool = researched++ === 0 ? "research_competitor" : "refresh_watchlist";
    const args = tool === "research_competitor" ? { competitor_id: competitorId } : {};
    site.paths.length = 0;
    const r = body(await mcp.callTool({ name: tool, arguments: args }));
    expect(r.error).toBeUndefined();
  } finally {
    await mcp.close();
  }
  await until("the page to be rendered", () => site.paths.includes("/api/plans.json"));
  const browsers = processTree(proc.pid).filter(isChromium);
  expect(browsers.length).toBeGreaterThan(0);
  expect(profiles().length).toBe(1);
  return { proc, browsers };
}

describe("rivals serve stops its browser on every exit", () => {
  for (const signal of ["SIGTERM", "SIGINT"] as const)
    test(`${signal}: the browser is stopped and its profile folder removed`, async () => {
      const { proc, browsers } = await serveAndRender();
      proc.kill(signal);
      expect(await proc.exited).toBe(0);
      await until("the browser to end", () => alive(browsers).length === 0, 5000);
      expect(profiles()).toEqual([]);
    });

  test("SIGKILL: the browser ends by itself; the next server removes the folder left behind", async () => {
    const first = await serveAndRender();
    const left = profiles();
    first.proc.kill("SIGKILL");
    await first.proc.exited;
    await until("the browser to end", () => alive(first.browsers).length === 0, 5000);
    expect(profiles()).toEqual(left);
    const second = await serveAndRender();
    expect(profiles()).not.toContain(left[0]);
    second.proc.kill("SIGTERM");
    expect(await second.proc.exited).toBe(0);
    expect(profiles()).toEqual([]);
  });
});
