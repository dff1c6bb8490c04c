// Commands whose decision comes with operational writes (Command.write): a removed member's OAuth grants, a
// password change's other sessions. On a real libSQL file: an accepted command appends its events and makes its
// writes in one transaction; a refused one appends no event and writes nothing. And a one-stream command run by two
// instances at once (an API key's revocation) is decided again on what the other left.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Actor, type Command, handle, runCommand } from "../../events/command.ts";
import { createSession } from "../../src/auth/session.ts";
import { loadConfig } from "../../src/config.ts";
import { insertFamily } from "../../src/db/oauth.ts";
import { createApiKey, revokeApiKeyCommand } from "../../src/domain/apiKeys.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { type ActingAdmin, removeMember } from "../../src/domain/memberChanges.ts";
import { addMember } from "../../src/domain/members.ts";
import { recordConsent } from "../../src/domain/oauthConsents.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { setPassword } from "../../src/domain/passwordChange.ts";
import { openServices, type Services } from "../../src/services.ts";

let dir: string;
let s: Services;
/** A second instance on the same database file, with its own connection and writer. */
let other: Services;
let orgId: number;
let ann: number;
let bob: number;

const count = async (sql: string, ...args: (string | number)[]) =>
  Number((await s.database.client.execute({ sql, args })).rows[0].n);
const events = () => count("SELECT COUNT(*) AS n FROM events");
const liveFamilies = (userId: number) =>
  count("SELECT COUNT(*) AS n FROM oauth_families WHERE user_id = ? AND revoked_at IS NULL", userId);
const sessions = (userId: number) => count("SELECT COUNT(*) AS n FROM sessions WHERE user_id = ?", userId);
const admin = (userId: number): { caller: ActingAdmin } => ({
  caller: { orgId, userId, actor: `user:${userId}` },
});

async function grant(userId: number, id: string) {
  await s.store.writeTables(({ later, now }) =>
    insertFamily(later, {
      id,
      clientId: "rvc_app",
      userId,
      orgId,
      scopes: "read",
      resource: "http://localhost/mcp",
      at: now.toISOString(),
    }),
  );
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "rivals-command-writes-"));
  const config = loadConfig({ RIVALS_DB: `file:${join(dir, "rivals.db")}`, RIVALS_ARCHIVE_MONTHS: "0" });
  s = await openServices(config, () => new Date("2026-11-20T12:00:00Z"));
  other = await openServices(config, () => new Date("2026-11-20T12:05:00Z"));
  orgId = (await createOrg(s.store, { slug: "acme", name: "ACME", plan: "growth" })).id;
  ann = (
    await addMember(s.store, {
      org: "acme",
      email: "ann@acme.example",
      role: "admin",
      password: "first-pass",
    })
  ).user_id;
  bob = (await addMember(s.store, { org: "acme", email: "bob@acme.example", role: "member" })).user_id;
});

afterAll(() => {
  s.close();
  other.close();
  rmSync(dir, { recursive: true, force: true });
});

test("removing the only admin is refused: no event, and the admin's app grants stay live", async () => {
  await grant(ann, "fam-ann");
  const before = await events();
  const refused = runCommand(s.store, removeMember, { user_id: ann }, admin(ann));
  await expect(refused).rejects.toBeInstanceOf(DomainError);
  await expect(refused).rejects.toMatchObject({ code: "conflict" });
  expect(await events()).toBe(before);
  expect(await liveFamilies(ann)).toBe(1);
});

test("removing a member revokes their grants in the same transaction as MembershipRevoked", async () => {
  await grant(bob, "fam-bob");
  const r = await runCommand(s.store, removeMember, { user_id: bob }, admin(ann));
  expect(r).toEqual({ user_id: bob, revoked_grants: 1 });
  expect(await liveFamilies(bob)).toBe(0);
  expect(
    await count(
      "SELECT COUNT(*) AS n FROM events WHERE type = 'MembershipRevoked' AND stream_id = ?",
      `${orgId}:${bob}`,
    ),
  ).toBe(1);
});

test("a password set against a hash that changed meanwhile is refused: no event, no session ended", async () => {
  await createSession(s, ann);
  await createSession(s, ann);
  const before = await events();
  const refused = runCommand(
    s.store,
    setPassword,
    { userId: ann, keepSession: "", hashBefore: "not-the-stored-hash", passwordHash: "new-hash" },
    { caller: { actor: `user:${ann}` } },
  );
  await expect(refused).rejects.toMatchObject({ code: "conflict" });
  expect(await events()).toBe(before);
  expect(await sessions(ann)).toBe(2);
  // Accepted: one UserPasswordSet, and every session but the kept one (none here) ended with it.
  const done = await runCommand(
    s.store,
    setPassword,
    { userId: ann, keepSession: "", passwordHash: "new-hash" },
    { caller: { actor: `user:${ann}` } },
  );
  expect(done).toEqual({ endedSessions: 2 });
  expect(await events()).toBe(before + 1);
  expect(await sessions(ann)).toBe(0);
});

test("a refused import line appends nothing; its neighbours still land", async () => {
  const before = await events();
  const report = await importNdjson(
    s.store,
    [
      { kind: "competitor", org: "acme", key: "c1", name: "Globex", website_url: "https://globex.example" },
      { kind: "signal", org: "acme", key: "s1", competitor: "nobody", title: "Refused: unknown competitor" },
      { kind: "signal", org: "nowhere", key: "s2", title: "Refused: unknown org" },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n"),
  );
  expect(report.applied).toBe(1);
  expect(report.errors).toEqual([
    { line: 2, error: 'competitor "nobody" is not a known competitor key' },
    { line: 3, error: 'no organization with slug "nowhere"' },
  ]);
  expect(await events()).toBe(before + 1);
});

test("an API key's revocation names the key's stream; two instances at once: the later is decided again, appends nothing", async () => {
  const key = await createApiKey(s.store, "acme", "race", ["read"]);
  const keyEvents = () =>
    count("SELECT COUNT(*) AS n FROM events WHERE stream_type = 'api_key' AND stream_id = ?", String(key.id));
  // The revocation rests on the key alone: it names the key's stream at the version its loader read (a probe
  // in a write that appends nothing).
  const probe = await s.store.writeTables((w) =>
    handle(revokeApiKeyCommand, w, { actor: "probe" }, { org: "acme", id: key.id }),
  );
  expect(probe.expectedVersions).toEqual({ [`api_key:${key.id}`]: 1 });
  // The first revocation reads the key (live), then waits while the other instance's revocation commits.
  let loads = 0;
  let release = () => {};
  const gate = new Promise<void>((r) => {
    release = r;
  });
  let loaded = () => {};
  const hasLoaded = new Promise<void>((r) => {
    loaded = r;
  });
  type Revoke =
    typeof revokeApiKeyCommand extends Command<infer I, infer S, infer R, Actor> ? [I, S, R] : never;
  const held: Command<Revoke[0], Revoke[1], Revoke[2], Actor> = {
    ...revokeApiKeyCommand,
    load: async (w, input, caller) => {
      const state = await revokeApiKeyCommand.load(w, input, caller);
      if (++loads === 1) {
        loaded();
        await gate;
      }
      return state;
    },
  };
  const first = runCommand(s.store, held, { org: "acme", id: key.id }, { caller: { actor: "user:1" } });
  await hasLoaded;
  const second = await runCommand(
    other.store,
    revokeApiKeyCommand,
    { org: "acme", id: key.id },
    { caller: { actor: "user:2" } },
  );
  expect(second.revoked_at).toBe("2026-11-20T12:05:00.000Z");
  release();
  // Decided again on the state the other instance left: already revoked then, nothing appended.
  expect(await first).toEqual({ id: key.id, revoked_at: "2026-11-20T12:05:00.000Z" });
  expect(loads).toBe(2);
  expect(await keyEvents()).toBe(2); // ApiKeyCreated, one ApiKeyRevoked
});

test("an app approval names its stream; a wider one appends after it with the union, the same one appends nothing", async () => {
  const approve = (scopes: string[]) =>
    runCommand(s.store, recordConsent, { orgId, userId: ann, clientId: "rvc_wide", scopes }, admin(ann));
  const streamId = `${orgId}:${ann}:rvc_wide`;
  const versions = async () =>
    (
      await s.database.client.execute({
        sql: "SELECT stream_version, data FROM events WHERE stream_type = 'oauth_consent' AND stream_id = ? ORDER BY stream_version",
        args: [streamId],
      })
    ).rows.map((r) => [Number(r.stream_version), JSON.parse(String(r.data)).scopes]);
  await approve(["read"]);
  const probe = await s.store.writeTables((w) =>
    handle(
      recordConsent,
      w,
      { actor: "probe" },
      { orgId, userId: ann, clientId: "rvc_wide", scopes: ["spend"] },
    ),
  );
  expect(probe.expectedVersions).toEqual({ [`oauth_consent:${streamId}`]: 1 });
  await approve(["write"]);
  await approve(["read"]);
  expect(await versions()).toEqual([
    [1, ["read"]],
    [2, ["read", "write"]],
  ]);
});
