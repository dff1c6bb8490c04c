// Exactly once across instances: three Rivals instances on one real sqld, the same tool call with the same
// idempotency_key sent to all three at once (src/mcp/idempotency.ts claims the key in the database).
import { afterAll, beforeAll, expect, test } from "bun:test";
import { createApiKey } from "../../src/domain/apiKeys.ts";
import { importNdjson } from "../../src/domain/imports.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { type Cluster, startCluster } from "../support/cluster.ts";
import { body, rawPost, toolsCall } from "../support/mcp-helpers.ts";

let c: Cluster;
let token: string;
let signalId: number;

beforeAll(async () => {
  c = await startCluster(3);
  const s = c.instances[0].services;
  await createOrg(s.store, { slug: "acme", name: "Acme", plan: "growth" });
  await importNdjson(
    s.store,
    [
      { kind: "competitor", org: "acme", key: "c1", name: "Globex" },
      { kind: "signal", org: "acme", key: "s1", competitor: "c1", title: "Globex raises prices" },
    ]
      .map((l) => JSON.stringify(l))
      .join("\n"),
  );
  signalId = Number(
    (await s.database.client.execute("SELECT id FROM signals WHERE title = 'Globex raises prices'")).rows[0]
      .id,
  );
  token = (await createApiKey(s.store, "acme", "race", ["read", "write"])).token;
});
afterAll(() => c.close());

/** The tool called on every instance at the same moment; the answers in instance order. */
async function race(name: string, args: (i: number) => Record<string, unknown>) {
  return Promise.all(
    c.instances.map(async (inst, i) => {
      const r = await rawPost(inst.base, toolsCall(name, args(i)), { authorization: `Bearer ${token}` });
      expect(r.status).toBe(200);
      return body(((await r.json()) as { result: unknown }).result);
    }),
  );
}

const eventsOf = async (type: string) =>
  Number(
    (
      await c.instances[1].services.database.client.execute({
        sql: "SELECT COUNT(*) AS n FROM events WHERE type = ?",
        args: [type],
      })
    ).rows[0].n,
  );

test("the same key on three instances at once: one share link, one answer", async () => {
  const rounds = 12;
  const before = await eventsOf("ShareLinkCreated");
  for (let round = 0; round < rounds; round++) {
    const answers = await race("create_share_link", () => ({
      signal_id: signalId,
      idempotency_key: `share-${round}`,
    }));
    for (const a of answers) expect(a.error).toBeUndefined();
    // One of them made the link and holds its URL; the others got its stored answer (URL redacted).
    expect(answers.filter((a) => a.url !== undefined)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.share_link_id ?? a.id)).size).toBe(1);
    expect(new Set(answers.map((a) => a.expires_at)).size).toBe(1);
    expect(await eventsOf("ShareLinkCreated")).toBe(before + round + 1);
  }
});

test("the same key on three instances at once: one invitation", async () => {
  const before = await eventsOf("InvitationCreated");
  for (let round = 0; round < 8; round++) {
    const answers = await race("invite_member", () => ({
      email: `new${round}@acme.io`,
      idempotency_key: `invite-${round}`,
    }));
    for (const a of answers) expect(a.error).toBeUndefined();
    expect(new Set(answers.map((a) => a.invitation.id)).size).toBe(1);
    expect(await eventsOf("InvitationCreated")).toBe(before + round + 1);
  }
});

test("the same key with other arguments at once: one runs, every other instance says idempotency_conflict", async () => {
  const before = await eventsOf("InvitationCreated");
  for (let round = 0; round < 6; round++) {
    const answers = await race("invite_member", (i) => ({
      email: `other${round}-${i}@acme.io`,
      idempotency_key: `clash-${round}`,
    }));
    const ok = answers.filter((a) => a.error === undefined);
    expect(ok).toHaveLength(1);
    expect(answers.filter((a) => a.error?.code === "idempotency_conflict")).toHaveLength(2);
    expect(await eventsOf("InvitationCreated")).toBe(before + round + 1);
  }
});

test("a retry on another instance after the first finished gets the stored answer", async () => {
  const [first] = await Promise.all([
    rawPost(
      c.instances[0].base,
      toolsCall("invite_member", { email: "late@acme.io", idempotency_key: "seq" }),
      { authorization: `Bearer ${token}` },
    ).then(async (r) => body(((await r.json()) as { result: unknown }).result)),
  ]);
  const before = await eventsOf("InvitationCreated");
  for (const inst of c.instances.slice(1)) {
    const r = await rawPost(
      inst.base,
      toolsCall("invite_member", { email: "late@acme.io", idempotency_key: "seq" }),
      { authorization: `Bearer ${token}` },
    );
    const again = body(((await r.json()) as { result: unknown }).result);
    expect(again.invitation.id).toBe(first.invitation.id);
  }
  expect(await eventsOf("InvitationCreated")).toBe(before);
});
