// The engagement handlers load plain state in one read (the subject, its pin, the caller's save), then decide:
// on a remote database server each command costs that one read (and a note its id), no more. Real libSQL file.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { handle } from "../../events/command.ts";
import type { WriteContext } from "../../events/store.ts";
import {
  addSignalNote,
  loadDigestEngagement,
  loadSignalEngagement,
  pinDigest,
  pinSignal,
  rateDigest,
  saveSignal,
} from "../../src/domain/engagement.ts";
import { createShareLink } from "../../src/domain/shareLinks.ts";
import type { Caller } from "../../src/domain/watchlist.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { idOfKey, orgId } from "../support/mcp-write-helpers.ts";

let t: TestServer;
let ada: Caller;
let bob: Caller;
let other: Caller;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme");
  await t.org("umbrella");
  await t.load([
    { kind: "competitor", org: "acme", key: "c1", name: "Globex", website_url: "https://globex.example" },
    { kind: "signal", org: "acme", key: "s1", competitor: "c1", title: "Globex raises prices" },
    { kind: "digest", org: "acme", key: "d1", slug: "week-46", type: "weekly_tldr" },
  ]);
  const acme = await orgId(t, "acme");
  ada = { orgId: acme, actor: "user:1", actorName: "Ada" };
  bob = { orgId: acme, actor: "user:2" };
  other = { orgId: await orgId(t, "umbrella"), actor: "user:3" };
  ids.s1 = await idOfKey(t, "signals", "s1");
  ids.d1 = await idOfKey(t, "digests", "d1");
});
afterAll(() => t.close());

/** Runs a handler through the writer, counting the statements it sends (reads and id allocations). */
async function counted<T>(fn: (w: WriteContext) => Promise<{ events: unknown[]; result: T }>) {
  let statements = 0;
  const { result, events } = await t.services.store.execute(async (w) => {
    const tx = Object.create(w.tx) as WriteContext["tx"];
    tx.execute = ((stmt: Parameters<typeof w.tx.execute>[0]) => {
      statements++;
      return w.tx.execute(stmt);
    }) as typeof tx.execute;
    const out = await fn({
      tx,
      later: w.later,
      now: w.now,
      nextId: () => {
        statements++;
        return w.nextId();
      },
    });
    return out as never;
  });
  return { result: result as T, events: events.length, statements };
}

const read = async <T>(f: (tx: WriteContext["tx"]) => Promise<T>) =>
  (await t.services.store.writeTables((w) => f(w.tx))) as T;

test("the signal's state: its pin for the team, the save for each caller, nothing for another workspace", async () => {
  expect(await read((tx) => loadSignalEngagement(tx, ada, ids.s1))).toEqual({
    id: ids.s1,
    pinned: false,
    saved: false,
  });
  const before =
    (await read((tx) => loadSignalEngagement(tx, ada, ids.s1, { version: true })))?.version ?? -1;
  const pin = await counted((w) => handle(pinSignal, w, ada, { signal_id: ids.s1, pinned: true }));
  expect(pin).toEqual({ result: { changed: true }, events: 1, statements: 1 });
  const save = await counted((w) => handle(saveSignal, w, ada, { signal_id: ids.s1, saved: true }));
  expect(save).toEqual({ result: { changed: true }, events: 1, statements: 1 });
  expect(await read((tx) => loadSignalEngagement(tx, ada, ids.s1))).toEqual({
    id: ids.s1,
    pinned: true,
    saved: true,
  });
  // The state carries the signal stream's version: the pin and the save are its next two events.
  expect((await read((tx) => loadSignalEngagement(tx, ada, ids.s1, { version: true })))?.version).toBe(
    before + 2,
  );
  expect(await read((tx) => loadSignalEngagement(tx, bob, ids.s1))).toEqual({
    id: ids.s1,
    pinned: true,
    saved: false,
  });
  expect(await read((tx) => loadSignalEngagement(tx, other, ids.s1))).toBeUndefined();
  // Repeating a pin reads once and appends nothing.
  expect(await counted((w) => handle(pinSignal, w, bob, { signal_id: ids.s1, pinned: true }))).toEqual({
    result: { changed: false },
    events: 0,
    statements: 1,
  });
  await expect(
    counted((w) => handle(pinSignal, w, other, { signal_id: ids.s1, pinned: false })),
  ).rejects.toThrow("No signal with that id");
});

test("a note costs one read and one id; an unknown subject takes no id", async () => {
  const note = await counted((w) =>
    handle(addSignalNote, w, ada, { signal_id: ids.s1, body: "Ask on calls." }),
  );
  expect(note.statements).toBe(2);
  expect(note.events).toBe(1);
  let idsTaken = 0;
  const nextIdCounted = (w: WriteContext) => () => {
    idsTaken++;
    return w.nextId();
  };
  await expect(
    t.services.store.execute((w) =>
      handle(addSignalNote, { ...w, nextId: nextIdCounted(w) }, other, { signal_id: ids.s1, body: "x" }),
    ),
  ).rejects.toThrow("No signal with that id");
  expect(idsTaken).toBe(0);
});

test("a digest by slug or by numeric id (as a number or a string of digits), with its pin, in one read", async () => {
  const byId = { id: ids.d1, pinned: false };
  expect(await read((tx) => loadDigestEngagement(tx, ada.orgId, "week-46"))).toEqual(byId);
  expect(await read((tx) => loadDigestEngagement(tx, ada.orgId, ids.d1))).toEqual(byId);
  expect(await read((tx) => loadDigestEngagement(tx, ada.orgId, String(ids.d1)))).toEqual(byId);
  expect(await read((tx) => loadDigestEngagement(tx, ada.orgId, "week-47"))).toBeUndefined();
  expect(await read((tx) => loadDigestEngagement(tx, other.orgId, "week-46"))).toBeUndefined();
  expect(await counted((w) => handle(pinDigest, w, ada, { digest: "week-46", pinned: true }))).toEqual({
    result: { digest_id: ids.d1, changed: true },
    events: 1,
    statements: 1,
  });
  expect(await read((tx) => loadDigestEngagement(tx, ada.orgId, "week-46"))).toEqual({
    id: ids.d1,
    pinned: true,
  });
  expect((await counted((w) => handle(rateDigest, w, ada, { digest: ids.d1, score: 4 }))).statements).toBe(1);
});

test("a share link reads the plan and the signal with its current link, then takes one id", async () => {
  const first = await counted((w) =>
    handle(createShareLink, w, ada, { signal_id: ids.s1, expiry: "24h", include_notes: false, base: t.base }),
  );
  expect(first.statements).toBe(3);
  expect(first.result.replaced_previous).toBe(false);
  const second = await counted((w) =>
    handle(createShareLink, w, ada, { signal_id: ids.s1, expiry: "24h", include_notes: false, base: t.base }),
  );
  expect(second.result.replaced_previous).toBe(true);
  expect(second.result.url).not.toBe(first.result.url);
});
