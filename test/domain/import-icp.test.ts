// Importing competitors under a workspace's ideal customer profile: a line without its own icp_overlap gets
// the overlap update_icp would compute (served with empty values pruned, as everything the API serves), so a re-import keeps it current instead of wiping it, and the same
// line imported again changes nothing.

import { afterAll, beforeAll, expect, test } from "bun:test";
import { runCommand } from "../../events/command.ts";
import { updateIcp } from "../../src/domain/icp.ts";
import { computeIcpOverlap } from "../../src/domain/icpOverlap.ts";
import { parseCompetitor } from "../../src/domain/records.ts";
import { prune } from "../../src/domain/validate.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let key: string;
let orgId: number;
const ICP = { industries: ["Fintech"], buyer_roles: ["CFO"] };
const line = {
  kind: "competitor",
  org: "acme",
  key: "ledger",
  name: "Ledgerly",
  website_url: "https://ledgerly.example",
  industry: "Fintech",
  target_customer: "Finance teams led by the CFO",
  watch: "core",
  tracking: "active",
};
const { kind: _k, org: _o, key: _key, ...fields } = line;

async function dossier(id: number) {
  const r = await t.get(`/api/v1/competitors/${id}`, { "x-api-key": key });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: { workspace?: Record<string, unknown>; description?: string } }).data;
}
async function competitorId(k: string): Promise<number> {
  const r = await t.services.database.client.execute({
    sql: "SELECT id FROM competitors WHERE org_id = ? AND key = ?",
    args: [orgId, k],
  });
  return Number(r.rows[0].id);
}

beforeAll(async () => {
  t = await startTestServer();
  orgId = (await t.org("acme")).id;
  key = await t.key("acme");
  expect((await t.load([line])).errors).toEqual([]);
  await runCommand(t.services.store, updateIcp, ICP, { caller: { orgId, actor: "test" } });
});
afterAll(() => t.close());

test("update_icp wrote the overlap; importing the same line again keeps it and changes nothing", async () => {
  const id = await competitorId("ledger");
  const before = await dossier(id);
  expect(before.workspace?.icp_overlap).toMatchObject({ level: "high" });
  const again = await t.load([line]);
  expect(again).toMatchObject({ applied: 0, unchanged: 1, errors: [] });
  expect((await dossier(id)).workspace?.icp_overlap).toEqual(before.workspace?.icp_overlap);
});

test("a changed line is recorded with the overlap its new text gives", async () => {
  const changed = { ...line, industry: "Healthcare", target_customer: "Hospital administrators" };
  expect(await t.load([changed])).toMatchObject({ applied: 1, errors: [] });
  const { kind: _a, org: _b, key: _c, ...changedFields } = changed;
  const expected = computeIcpOverlap(ICP, parseCompetitor(changedFields));
  const overlap = (await dossier(await competitorId("ledger"))).workspace?.icp_overlap;
  expect(overlap).toEqual(prune(expected));
  expect(overlap).not.toMatchObject({ level: "high" });
});

test("a new competitor gets its overlap at import; a line with its own overlap keeps that one", async () => {
  expect(await t.load([{ ...line, key: "new-one", name: "Newco" }])).toMatchObject({
    applied: 1,
    errors: [],
  });
  const expected = computeIcpOverlap(ICP, parseCompetitor(fields));
  expect((await dossier(await competitorId("new-one"))).workspace?.icp_overlap).toEqual(prune(expected));
  const own = { score: 0.1, level: "low", note: "set by hand" };
  await t.load([{ ...line, key: "own", name: "Own", workspace: { icp_overlap: own } }]);
  expect((await dossier(await competitorId("own"))).workspace?.icp_overlap).toEqual(own);
});

test("projections rebuild reproduces the overlaps", async () => {
  const id = await competitorId("new-one");
  const before = await dossier(id);
  const { rebuildProjections } = await import("../../projections/rebuild.ts");
  await rebuildProjections(t.services.store);
  expect(await dossier(id)).toEqual(before);
});
