// The official MCP conformance suite (@modelcontextprotocol/conformance, from npm) against a running server:
// its whole active server suite, with the scenarios this server is not meant to pass listed, each with its
// reason, in conformance-baseline.yaml. The suite's CLI needs Node 22 (fs.globSync); it runs under Bun, which
// has it. Initialization, ping, tools/list, prompts/list and the DNS-rebinding checks must pass outright.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startTestServer, type TestServer } from "../support/helpers.ts";

setDefaultTimeout(120_000);

const CLI = join(import.meta.dir, "../../node_modules/@modelcontextprotocol/conformance/dist/index.js");
const BASELINE = join(import.meta.dir, "conformance-baseline.yaml");

let t: TestServer;
let dir: string;
beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  dir = mkdtempSync(join(tmpdir(), "rivals-conformance-"));
});
afterAll(async () => {
  await t.close();
  rmSync(dir, { recursive: true, force: true });
});

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

test("the official server scenarios pass, but for the listed ones", async () => {
  const proc = Bun.spawn(
    [process.execPath, CLI, "server", "--url", `${t.base}/mcp`, "--expected-failures", BASELINE, "-o", dir],
    { stdout: "pipe", stderr: "pipe", env: { ...process.env, NO_COLOR: "1" } },
  );
  const [out, err, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  // Exit 0: every failure is in the baseline and every baseline entry still fails.
  expect({ code, tail: code === 0 ? "" : `${out.slice(-3000)}${err}` }).toEqual({ code: 0, tail: "" });
  expect(out).toContain("Baseline check passed");

  const checks = new Map<string, Check[]>();
  for (const run of readdirSync(dir)) {
    const scenario = run.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
    checks.set(scenario, JSON.parse(readFileSync(join(dir, run, "checks.json"), "utf8")));
  }
  for (const scenario of [
    "server-initialize",
    "ping",
    "tools-list",
    "prompts-list",
    "dns-rebinding-protection",
  ]) {
    const results = (checks.get(scenario) ?? []).filter((c) => c.status !== "INFO");
    expect({ scenario, ran: results.length > 0 }).toEqual({ scenario, ran: true });
    for (const c of results)
      expect({ scenario, id: c.id, status: c.status, error: c.errorMessage }).toEqual({
        scenario,
        id: c.id,
        status: "SUCCESS",
        error: undefined,
      });
  }
});
