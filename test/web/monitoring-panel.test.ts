// The monitoring part of a competitor page names why each failing source fails in plain words: a fixed phrase
// per error code, never the fetcher's message (no address, no resolver output).
import { expect, test } from "bun:test";
import { MonitoringPanel } from "../../src/web/monitoring.tsx";

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
