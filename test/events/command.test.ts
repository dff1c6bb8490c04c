// The command runner (events/command.ts) against a real libSQL file opened by two instances, each with its own
// connection and single writer: a command's events are appended and projected in its transaction, a refusal
// appends nothing, and two commands racing on one stream never both append after the same version.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Client } from "@libsql/client";
import { type Command, handle, runCommand } from "../../events/command.ts";
import { EventStore } from "../../events/store.ts";
import { projectAll } from "../../projections/index.ts";
import { loadConfig } from "../../src/config.ts";
import { addSignalNote, pinSignal, saveSignal } from "../../src/domain/engagement.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { renameCompetitor } from "../../src/domain/watchlist.ts";
import { openServices, type Services } from "../../src/services.ts";

let dir: string;
let a: Services;
let b: Services;
let orgId: number;
let signalId: number;
let competitorId: number;
const ada = () => ({ caller: { orgId, actor: "user:1", actorName: "Ada" } });
const bob = () => ({ caller: { orgId, actor: "user:2", actorName: "Bob" } });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-command-"));
  const config = loadConfig({ RIVALS_DB: `file:${join(dir, "rivals.db")}`, RIVALS_ARCHIVE_MONTHS: "0" });
  const clock = () => new Date("2026-11-20T12:00:00Z");
  a = await openServices(config, clock);
  b = await openServices(config, clock);
  orgId = (await createOrg(a.store, { slug: "acme", name: "ACME", plan: "growth" })).id;
  const report = await importNdjson(
    a.store,
    [
      { kind: "competitor", org: "acme", key: "c1", name: "Globex", website_url: "https://globex.example" },
      { kind: "signal", org: "acme", key: "s1", competitor: "c1", title: "Globex raises prices" },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n"),
  );
  expect(report.errors).toEqual([]);
  const one = async (sql: string) => Number((await a.database.client.execute(sql)).rows[0].id);
  signalId = await one("SELECT id FROM signals WHERE key = 's1'");
  competitorId = await one("SELECT id FROM competitors WHERE key = 'c1'");
});

afterAll(() => {
  a.close();
  b.close();
  rmSync(dir, { recursive: true, force: true });
});

async function stream(type: string, id: number) {
  const r = await a.database.client.execute({
    sql: "SELECT type, stream_version FROM events WHERE stream_type = ? AND stream_id = ? ORDER BY stream_version",
    args: [type, String(id)],
  });
  return r.rows.map((x) => ({ type: String(x.type), version: Number(x.stream_version) }));
}

const eventCount = async () =>
  Number((await a.database.client.execute("SELECT count(*) AS n FROM events")).rows[0].n);

test("a command's events are appended after the version its state was read at, and projected with them", async () => {
  const before = await stream("competitor", competitorId);
  const r = await runCommand(
    a.store,
    renameCompetitor,
    { competitor_id: competitorId, name: "Globex Corp" },
    ada(),
  );
  expect(r).toEqual({ id: competitorId, renamed: true });
  const after = await stream("competitor", competitorId);
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after.slice(before.length)).toEqual([{ type: "CompetitorRenamed", version: before.length + 1 }]);
  // The read table shows it as soon as the command resolved, from the other instance too.
  const row = await b.database.client.execute({
    sql: "SELECT name FROM competitors WHERE id = ?",
    args: [competitorId],
  });
  expect(String(row.rows[0].name)).toBe("Globex Corp");
  const meta = await a.database.client.execute(
    "SELECT metadata FROM events WHERE type = 'CompetitorRenamed' ORDER BY position DESC LIMIT 1",
  );
  expect(JSON.parse(String(meta.rows[0].metadata))).toEqual({ actor: "user:1" });
});

test("a refused command appends nothing, though its loader took an id", async () => {
  const n = await eventCount();
  await expect(
    runCommand(a.store, addSignalNote, { signal_id: signalId, body: "   " }, ada()),
  ).rejects.toThrow("body must not be empty");
  await expect(
    runCommand(a.store, renameCompetitor, { competitor_id: 999_999, name: "Nobody" }, ada()),
  ).rejects.toBeInstanceOf(DomainError);
  expect(await eventCount()).toBe(n);
});

/** The command with its first load held once it has read, until released: what another instance commits
 * meanwhile lands between its read and its append. Counts its loads (a command run again loads again). */
function heldAtFirstLoad<I, S, R>(command: Command<I, S, R>) {
  let loads = 0;
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let loaded = () => {};
  const hasLoaded = new Promise<void>((r) => {
    loaded = r;
  });
  const held: Command<I, S, R> = {
    ...command,
    load: async (w, input, caller) => {
      const state = await command.load(w, input, caller);
      loads++;
      if (loads === 1) {
        loaded();
        await gate;
      }
      return state;
    },
  };
  return { held, hasLoaded, release, loads: () => loads };
}

test("two instances pin one signal at once: the later runs again from its load and sees the pin made meanwhile", async () => {
  // Ada's pin reads the signal (not pinned), then waits while Bob's pin commits on the other instance.
  const slow = heldAtFirstLoad(pinSignal);
  const before = await stream("signal", signalId);
  const adaPins = runCommand(a.store, slow.held, { signal_id: signalId, pinned: true }, ada());
  await slow.hasLoaded;
  expect(await runCommand(b.store, pinSignal, { signal_id: signalId, pinned: true }, bob())).toEqual({
    changed: true,
  });
  slow.release();
  // Ada's command was decided again on the state Bob left: already pinned, nothing to append.
  expect(await adaPins).toEqual({ changed: false });
  expect(slow.loads()).toBe(2);
  const after = await stream("signal", signalId);
  expect(after.slice(before.length)).toEqual([{ type: "SignalPinSet", version: before.length + 1 }]);
});

test("two instances add a note to one signal at once: neither runs the other again, both are kept in order", async () => {
  // A note rests only on the signal being there: it names no stream version, so another instance's note meanwhile
  // does not make it run again.
  const slow = heldAtFirstLoad(addSignalNote);
  const before = await stream("signal", signalId);
  const adaNotes = runCommand(
    a.store,
    slow.held,
    { signal_id: signalId, body: "Ask about it on calls." },
    ada(),
  );
  await slow.hasLoaded;
  await runCommand(b.store, addSignalNote, { signal_id: signalId, body: "Sales has heard this too." }, bob());
  slow.release();
  await adaNotes;
  expect(slow.loads()).toBe(1);
  const added = (await stream("signal", signalId)).slice(before.length);
  expect(added).toEqual([
    { type: "SignalNoteAdded", version: before.length + 1 },
    { type: "SignalNoteAdded", version: before.length + 2 },
  ]);
  const notes = await a.database.client.execute({
    sql: "SELECT body FROM notes WHERE subject_type = 'signal' AND subject_id = ?",
    args: [signalId],
  });
  expect(notes.rows.map((r) => String(r.body)).sort()).toEqual([
    "Ask about it on calls.",
    "Sales has heard this too.",
  ]);
});

test("a group of notes and a save on one signal: one request, the save after the notes in the stream", async () => {
  // The writer's client, counting the requests that write: one batch per group that only read and appended,
  // a transaction for a group that had to hold the lock.
  const counts = { batch: 0, transaction: 0 };
  const client = a.database.client;
  const counted = {
    execute: client.execute.bind(client),
    batch: (...args: Parameters<Client["batch"]>) => {
      counts.batch++;
      return client.batch(...args);
    },
    transaction: (...args: Parameters<Client["transaction"]>) => {
      counts.transaction++;
      return client.transaction(...args);
    },
  } as unknown as Client;
  const store = new EventStore(counted, projectAll, () => new Date("2026-11-20T12:00:00Z"));
  const before = await stream("signal", signalId);
  // The first command starts a group alone; the others wait for it and go in the next. The save reads the
  // signal's version without waiting for the notes before it in its group, and goes after them.
  const first = runCommand(store, addSignalNote, { signal_id: signalId, body: "Point 0" }, ada());
  const rest = [
    ...["Point 1", "Point 2", "Point 3"].map((body) =>
      runCommand(store, addSignalNote, { signal_id: signalId, body }, bob()),
    ),
    runCommand(store, saveSignal, { signal_id: signalId, saved: true }, bob()),
  ];
  await Promise.all([first, ...rest]);
  expect(counts).toEqual({ batch: 2, transaction: 0 });
  const added = (await stream("signal", signalId)).slice(before.length);
  expect(added).toEqual([
    ...[1, 2, 3, 4].map((i) => ({ type: "SignalNoteAdded", version: before.length + i })),
    { type: "SignalSaveSet", version: before.length + 5 },
  ]);
});

test("an append after a version the stream has moved past never commits, and appends nothing", async () => {
  // A command that claims to have read the competitor at version 0 (it has events since): the log's unique
  // (stream, version) key refuses its event.
  const stale: Command<{ competitor_id: number }, { version: number }, null> = {
    load: async () => ({ version: 0 }),
    stream: (s) => ({ streamType: "competitor", streamId: String(competitorId), version: s.version }),
    decide: (_s, cmd, { caller }) => ({
      events: [
        {
          type: "CompetitorRenamed",
          orgId: caller.orgId,
          streamType: "competitor",
          streamId: String(cmd.competitor_id),
          data: { id: cmd.competitor_id, name: "Never" },
        },
      ],
      result: null,
    }),
  };
  const n = await eventCount();
  await expect(
    a.store.execute((w) => handle(stale, w, ada().caller, { competitor_id: competitorId })),
  ).rejects.toThrow(/UNIQUE/);
  expect(await eventCount()).toBe(n);
  const row = await a.database.client.execute({
    sql: "SELECT name FROM competitors WHERE id = ?",
    args: [competitorId],
  });
  expect(String(row.rows[0].name)).toBe("Globex Corp");
});
