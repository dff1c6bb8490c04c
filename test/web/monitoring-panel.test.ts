// The monitoring part of a competitor page names why each failing source fails in plain words: a fixed phrase
// per error code, never the fetcher's message (no address, no resolver output); and lists every source research
// chose to watch with its last check.
import { expect, setDefaultTimeout, test } from "bun:test";
import { watchedSources } from "../../src/db/queries/dossier.ts";
import { runCycle } from "../../src/engine/cycle/run.ts";
import { MonitoringPanel } from "../../src/web/monitoring.tsx";
import { addResearched, startFixtureWorkspace } from "../support/fixture-workspace.ts";

setDefaultTimeout(60_000);

const panel = async (error: string) =>
  String(
    await MonitoringPanel({
      c: {
        freshness: {
          last_checked_at: "2026-11-20T12:00:00.000Z",
          sources: { checked: 5, changed: 0 },
          source_failures: [
            { url: "https://docs.acme.example/", error, failures: 2, since: "2026-11-19T12:00:00.000Z" },
          ],
        },
      },
    }),
  );

test("each failure reads as what went wrong", async () => {
  const words: [string, string][] = [
    ["blocked_address", "its name does not resolve to a public address"],
    ["outside_sites", "not one of the demo&#x27;s sites"],
    ["timeout", "did not answer in time"],
    ["network", "could not be reached"],
    ["http_error 404", "answered HTTP 404"],
  ];
  for (const [code, text] of words) {
    const html = await panel(code);
    expect(html).toContain("1 failing");
    expect(html).toContain(`${text}</span>`);
  }
  expect(await panel("blocked_address")).not.toContain("public internet address");
});

test("before any cycle the panel lists the sources research chose, waiting for their first check", async () => {
  const html = String(
    await MonitoringPanel({
      c: { freshness: {} },
      sources: [
        { url: "https://globex.example/pricing", kind: "pricing", failures: 0 },
        { url: "https://api.github.com/repos/globex/js/releases", kind: "github_releases", failures: 0 },
        {
          url: "https://boards-api.greenhouse.io/v1/boards/globex/jobs",
          kind: "job_board:greenhouse",
          failures: 0,
        },
      ],
    }),
  );
  expect(html).toContain("No monitoring cycle has checked these sources yet.");
  expect(html).toContain("All 3 sources watched");
  expect(html).toContain("pricing page</span>");
  expect(html).toContain("GitHub releases</span>");
  expect(html).toContain("job board (greenhouse)</span>");
  expect(html.match(/waiting for the first cycle/g)).toHaveLength(3);
});

test("after cycles each source of a researched competitor has its last check; a failing one says why", async () => {
  const w = await startFixtureWorkspace();
  try {
    const id = await addResearched(w, "https://globex.example");
    w.web.set("globex.example", "/pricing", { status: 503 });
    await runCycle(w.t.services, w.orgId, { trigger: "operator" });
    const sources = await watchedSources(w.t.services.database.client, w.orgId, id);
    expect(sources.length).toBeGreaterThan(3);
    const kinds = new Set(sources.map((x) => x.kind));
    expect(kinds).toContain("pricing");
    expect(sources.every((x) => x.lastCheckedAt)).toBe(true);
    const pricing = sources.find((x) => x.url === "https://globex.example/pricing")!;
    expect(pricing).toMatchObject({ failures: 1, lastError: "http_error 503" });
    // Another workspace's id asks for nothing.
    expect(await watchedSources(w.t.services.database.client, w.orgId + 1000, id)).toEqual([]);
    const html = String(
      await MonitoringPanel({
        c: { freshness: { last_checked_at: pricing.lastCheckedAt, sources: { checked: sources.length } } },
        sources,
      }),
    );
    expect(html).toContain(`All ${sources.length} sources watched`);
    expect(html).toContain("failing: answered HTTP 503");
  } finally {
    await w.stop();
  }
});
