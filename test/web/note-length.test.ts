// One note-length rule on every surface: the MCP tools and the app's forms accept a note of NOTE_MAX emoji
// (twice as many UTF-16 units) and refuse one character more, as the deciders count.
import { afterAll, beforeAll, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { NOTE_MAX } from "../../src/domain/engagement.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient } from "../support/mcp-helpers.ts";
import { browse, csrfOf, loadWebFixture, postForm, type WebFixture } from "../support/web-fixture.ts";

let t: TestServer;
let f: WebFixture;
let mcp: Client;
const fits = "😀".repeat(NOTE_MAX);
const over = "😀".repeat(NOTE_MAX + 1);

beforeAll(async () => {
  t = await startTestServer();
  f = await loadWebFixture(t);
  mcp = await mcpClient(t.base, await t.key("acme"));
});
afterAll(() => t.close());

const call = async (name: string, args: Record<string, unknown>) =>
  body(await mcp.callTool({ name, arguments: args }));

test("MCP: notes, a rating's comment and what a digest misses are counted in characters", async () => {
  const signal_id = f.ids["acme:signals:s1"];
  const digest_id = f.ids["acme:digests:w46"];
  const competitor_id = f.ids[Object.keys(f.ids).find((k) => k.startsWith("acme:competitors:"))!];
  expect((await call("add_signal_note", { signal_id, body: fits })).note.body).toBe(fits);
  expect((await call("add_signal_note", { signal_id, body: over })).error.code).toBe("invalid_argument");
  expect((await call("add_digest_note", { digest_id, body: fits })).note.body).toBe(fits);
  expect((await call("add_digest_note", { digest_id, body: over })).error.code).toBe("invalid_argument");
  const rated = await call("rate_signal", { signal_id, useful: false, reasons: ["other"], comment: fits });
  expect(rated.your_rating.comment).toBe(fits);
  expect(
    (await call("rate_signal", { signal_id, useful: false, reasons: ["other"], comment: over })).error.code,
  ).toBe("invalid_argument");
  expect((await call("rate_digest", { digest_id, missing: over })).error.code).toBe("invalid_argument");
  expect((await call("add_battlecard_note", { competitor_id, body: over })).error.code).toBe(
    "invalid_argument",
  );
});

test("pages: the note form lets NOTE_MAX emoji through and the server counts as the tools do", async () => {
  const id = f.ids["acme:signals:s2"];
  const html = await (await browse(t, `/app/signals/${id}`, f.ann.cookie)).text();
  const maxlength = Number(/id="note-body"[^>]*maxlength="(\d+)"/.exec(html)?.[1]);
  expect(maxlength).toBeGreaterThanOrEqual(fits.length);
  const csrf = csrfOf(html);
  const ok = await postForm(t, `/app/signals/${id}/notes`, { csrf, org: "acme", body: fits }, f.ann.cookie);
  expect(ok.status).toBe(303);
  const refused = await postForm(
    t,
    `/app/signals/${id}/notes`,
    { csrf, org: "acme", body: over },
    f.ann.cookie,
  );
  expect(refused.status).toBe(400);
  const notes = await t.services.database.client.execute({
    sql: "SELECT body FROM notes WHERE subject_type = 'signal' AND subject_id = ?",
    args: [id],
  });
  expect(notes.rows.map((r) => String(r.body))).toEqual([fits]);
});
