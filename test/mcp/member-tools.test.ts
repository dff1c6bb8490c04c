// list_members and invite_member: roles, plans, scopes and the other org, over HTTP with the SDK client and
// with member principals through callTool (the principal an OAuth token of a member yields).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { loadMemberUser, memberPrincipal } from "../../src/auth/session.ts";
import type { Scope } from "../../src/domain/apiKeys.ts";
import { addMember } from "../../src/domain/members.ts";
import { callTool } from "../../src/mcp/call.ts";
import { toolList, toolsByName } from "../../src/mcp/registry.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import { body, mcpClient, rawPost, toolsCall } from "../support/mcp-helpers.ts";

let t: TestServer;
let admin: Client;
const ids: Record<string, number> = {};

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("other", "growth");
  await t.org("freebie", "free");
  await t.org("small", "starter");
  ids.ada = (
    await addMember(t.services.store, { org: "acme", email: "ada@x.io", role: "admin", name: "Ada" })
  ).user_id;
  ids.bob = (await addMember(t.services.store, { org: "acme", email: "bob@x.io", role: "member" })).user_id;
  ids.olga = (await addMember(t.services.store, { org: "other", email: "olga@x.io", role: "admin" })).user_id;
  ids.fred = (
    await addMember(t.services.store, { org: "freebie", email: "fred@x.io", role: "admin" })
  ).user_id;
  admin = await mcpClient(t.base, await t.key("acme"));
});
afterAll(async () => {
  await admin.close();
  await t.close();
});

/** Calls a tool as a member of an org, the way an OAuth token of that member does. */
async function asMember(
  user: string,
  org: string,
  name: string,
  args: object = {},
  scopes: Scope[] = ["read", "write"],
) {
  const u = (await loadMemberUser(t.services, ids[user]))!;
  const m = u.memberships.find((x) => x.orgSlug === org)!;
  const principal = memberPrincipal(u, m.orgId, scopes)!;
  const result = await callTool(
    toolsByName.get(name)!,
    { s: t.services, principal, requestId: "test", base: t.base, now: t.services.clock() },
    args,
  );
  return body(result);
}

describe("tools/list", () => {
  test("both tools are listed with their rules in the description", () => {
    const list = toolList.find((x) => x.name === "list_members")!;
    const invite = toolList.find((x) => x.name === "invite_member")!;
    expect(list.annotations.readOnlyHint).toBe(true);
    expect(invite.annotations.readOnlyHint).toBe(false);
    expect(invite.annotations.openWorldHint).toBe(true);
    expect(invite.description).toContain("Admins only.");
    expect(invite.description).toContain("Paid plans only.");
    expect(invite.description).toContain("Needs scope write.");
    const schema = invite.inputSchema as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(schema.properties).sort()).toEqual(["email", "idempotency_key"]);
    expect(schema.required).toEqual(["email"]);
  });
});

describe("list_members", () => {
  test("an admin sees the people with roles and the pending invitations", async () => {
    const inv = await asMember("ada", "acme", "invite_member", { email: "zed@x.io" });
    expect(inv.invite_url).toStartWith(`${t.base}/invite/`); // no SMTP configured here
    const r = await asMember("ada", "acme", "list_members");
    expect(r.members).toEqual([
      { user_id: ids.ada, email: "ada@x.io", name: "Ada", role: "admin", joined_at: expect.any(String) },
      { user_id: ids.bob, email: "bob@x.io", role: "member", joined_at: expect.any(String) },
    ]);
    expect(r.invitations).toEqual([
      {
        id: inv.invitation.id,
        email: "zed@x.io",
        role: "member",
        invited_by: "Ada",
        invited_at: t.clock.now.toISOString(),
        expires_at: new Date(t.clock.now.getTime() + 7 * 86_400_000).toISOString(),
      },
    ]);
  });

  test("a member sees the people but no invitations", async () => {
    const r = await asMember("bob", "acme", "list_members", {}, ["read"]);
    expect(r.members.map((m: { email: string }) => m.email)).toEqual(["ada@x.io", "bob@x.io"]);
    expect(r.invitations).toBeUndefined();
  });

  test("only the caller's workspace", async () => {
    const r = await asMember("olga", "other", "list_members");
    expect(r.members.map((m: { email: string }) => m.email)).toEqual(["olga@x.io"]);
    expect(r.invitations).toEqual([]);
    const viaKey = body(await admin.callTool({ name: "list_members", arguments: {} }));
    expect(viaKey.members.map((m: { email: string }) => m.email)).not.toContain("olga@x.io");
  });

  test("expired invitations are no longer listed as pending", async () => {
    await asMember("olga", "other", "invite_member", { email: "late@x.io" });
    expect((await asMember("olga", "other", "list_members")).invitations).toHaveLength(1);
    t.clock.advance(7 * 86_400_000 + 1);
    expect((await asMember("olga", "other", "list_members")).invitations).toEqual([]);
  });
});

describe("invite_member refusals", () => {
  test("not admin", async () => {
    const r = await asMember("bob", "acme", "invite_member", { email: "x@x.io" });
    expect(r.error.code).toBe("forbidden");
    expect(r.error.message).toContain("admins only");
  });

  test("wrong plan: the free plan cannot invite", async () => {
    const r = await asMember("fred", "freebie", "invite_member", { email: "x@x.io" });
    expect(r.error.code).toBe("plan_required");
    expect(r.error.plan_needed).toBe("starter");
  });

  test("bad email and an address that is already a member", async () => {
    const bad = body(await admin.callTool({ name: "invite_member", arguments: { email: "not an email" } }));
    expect(bad.error.code).toBe("invalid_argument");
    const member = body(await admin.callTool({ name: "invite_member", arguments: { email: "BOB@x.io" } }));
    expect(member.error.code).toBe("conflict");
  });

  test("the plan's member seats count members and pending invitations", async () => {
    const c = await mcpClient(t.base, await t.key("small"));
    try {
      // starter: 5 seats, no members yet.
      for (let i = 0; i < 5; i++) {
        const r = body(await c.callTool({ name: "invite_member", arguments: { email: `p${i}@x.io` } }));
        expect(r.invitation.email).toBe(`p${i}@x.io`);
      }
      // Re-inviting a pending address replaces it and needs no new seat.
      const again = body(await c.callTool({ name: "invite_member", arguments: { email: "p0@x.io" } }));
      expect(again.replaced_earlier_invitation).toBe(true);
      const full = body(await c.callTool({ name: "invite_member", arguments: { email: "p5@x.io" } }));
      expect(full.error.code).toBe("limit_reached");
      expect(full.error.seats).toBe(5);
    } finally {
      await c.close();
    }
  });

  test("a key without the write scope gets HTTP 403 insufficient_scope", async () => {
    const readOnly = await t.key("acme", "read");
    const res = await rawPost(t.base, toolsCall("invite_member", { email: "y@x.io" }), {
      authorization: `Bearer ${readOnly}`,
      "mcp-protocol-version": "2025-11-25",
    });
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('scope="write"');
    // list_members needs only read.
    const c = await mcpClient(t.base, readOnly);
    expect(body(await c.callTool({ name: "list_members", arguments: {} })).members).toHaveLength(2);
    await c.close();
  });

  test("without a credential: 401", async () => {
    const res = await rawPost(t.base, toolsCall("list_members"));
    expect(res.status).toBe(401);
  });
});
