// A page's check asks for its source's stored history only once its snapshot is new, and a history the store
// cannot read is the service's fault (an internal failure), never the page's ("unreadable").
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../../src/config.ts";
import { checkSource } from "../../../src/engine/cycle/check.ts";
import { openServices, type Services } from "../../../src/services.ts";
import { AT, COMPETITOR, fetcherTo, pageState } from "../../support/source-state.ts";

const HTML =
  "<!doctype html><html><head><title>Pricing</title></head><body><main><h1>Plans</h1><p>Team $29 a month.</p></main></body></html>";
let site: ReturnType<typeof Bun.serve>;
let dir: string;

beforeAll(() => {
  site = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: () =>
      new Response(HTML, { headers: { "content-type": "text/html; charset=utf-8", etag: '"v2"' } }),
  });
  dir = mkdtempSync(join(tmpdir(), "rivals-history-read-"));
});
afterAll(() => {
  site.stop(true);
  rmSync(dir, { recursive: true, force: true });
});

const fetcher = () => fetcherTo("https://history.test", site.port);
const source = { url: "https://history.test/pricing", kind: "pricing", monitored: false };
/** Last checked with other bytes and another snapshot ("abc"), as pageState says. */
const state = pageState(source.url, { etag: '"v1"', bodyHash: "other.sig", rendered: false });

const services = (name: string): Promise<Services> =>
  openServices(loadConfig({ RIVALS_DB: `file:${join(dir, `${name}.db`)}`, RIVALS_ARCHIVE_MONTHS: "0" }));

test("a new snapshot with no stored version to compare with is the source's baseline", async () => {
  const s = await services("empty");
  try {
    const o = await checkSource(s, 1, COMPETITOR, AT, source, state, fetcher());
    expect(o.status).toBe("baseline");
  } finally {
    s.close();
  }
});

test("a history the store cannot read fails the check as an internal fault, not as an unreadable page", async () => {
  const s = await services("closed");
  s.database.client.close();
  const o = await checkSource(s, 1, COMPETITOR, AT, source, state, fetcher());
  expect(o.status).toBe("failed");
  if (o.status === "failed") expect(o.error).toMatch(/^internal: /);
  s.close();
});
