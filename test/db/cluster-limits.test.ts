// One limit for the service: two and three Rivals instances on one real sqld share the read API's budget per
// address, the tool endpoint's per credential, sign-in's slow-down and the public forms' limits
// (src/http/rateLeases.ts, src/auth/throttle.ts), with RateLimit-* headers from the shared count.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createApiKey } from "../../src/domain/apiKeys.ts";
import { addMember } from "../../src/domain/members.ts";
import { createOrg } from "../../src/domain/orgs.ts";
import { FORM_LIMITS } from "../../src/web/formLimit.ts";
import { type Cluster, startCluster } from "../support/cluster.ts";
import { rawPost, toolsCall } from "../support/mcp-helpers.ts";
import { hidden } from "../support/members-helpers.ts";

setDefaultTimeout(60_000);

const clock = {
  now: new Date("2026-11-20T12:00:00Z"),
  advance(ms: number) {
    this.now = new Date(this.now.getTime() + ms);
  },
};
let c: Cluster;
let token: string;

beforeAll(async () => {
  c = await startCluster(3, {}, () => clock.now);
  const s = c.instances[0].services;
  await createOrg(s.store, { slug: "acme", name: "Acme", plan: "growth" });
  await addMember(s.store, {
    org: "acme",
    email: "ada@x.io",
    role: "admin",
    password: "correct horse battery",
  });
  token = (await createApiKey(s.store, "acme", "limits", ["read", "write"])).token;
});
afterAll(() => c.close());

const rate = (r: Response) => ({
  limit: Number(r.headers.get("ratelimit-limit")),
  remaining: Number(r.headers.get("ratelimit-remaining")),
  reset: Number(r.headers.get("ratelimit-reset")),
  retryAfter: r.headers.get("retry-after"),
});

describe("the read API's 600 a minute per address", () => {
  test("is the service's over two instances, and the headers count for the service", async () => {
    const [a, b] = c.instances;
    const get = (base: string) =>
      fetch(`${base}/api/v1/competitors`, { headers: { authorization: `Bearer ${token}` } });
    let accepted = 0;
    const refusedBy = new Set<string>();
    // Round robin, as a proxy would, until both instances refuse.
    for (let i = 0; refusedBy.size < 2 && i < 1400; i++) {
      const base = i % 2 === 0 ? a.base : b.base;
      const r = await get(base);
      const h = rate(r);
      expect(h.limit).toBe(600);
      if (r.status === 429) {
        refusedBy.add(base);
        expect(Number(h.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(Number(h.retryAfter)).toBeLessThanOrEqual(66);
        expect(((await r.json()) as { code: string }).code).toBe("rate_limited");
        continue;
      }
      expect(r.status).toBe(200);
      await r.arrayBuffer();
      accepted++;
      // The service's count, give or take the block the other instance holds (a twentieth of the budget).
      expect(accepted + h.remaining).toBeLessThanOrEqual(600 + 30);
      expect(accepted + h.remaining).toBeGreaterThanOrEqual(600 - 30);
    }
    expect(accepted).toBe(600);
    // A third instance is refused too: the budget is the service's.
    expect((await get(c.instances[2].base)).status).toBe(429);
    // The window slides: a minute and a slice later, the address has its budget again.
    clock.advance(66_000);
    const again = await get(b.base);
    expect(again.status).toBe(200);
    expect(rate(again).remaining).toBeGreaterThan(500);
  });
});

describe("the tool endpoint's 600 a minute per credential", () => {
  test("is the service's over three instances", async () => {
    clock.advance(120_000);
    const other = (await createApiKey(c.instances[0].services.store, "acme", "mcp", ["read"])).token;
    let accepted = 0;
    let refused = 0;
    for (let i = 0; refused < 3 && i < 1900; i++) {
      const inst = c.instances[i % 3];
      const r = await rawPost(inst.base, toolsCall("get_plan_and_limits"), {
        authorization: `Bearer ${other}`,
      });
      await r.arrayBuffer();
      if (r.status === 429) {
        refused++;
        expect(Number(rate(r).retryAfter)).toBeGreaterThanOrEqual(1);
        continue;
      }
      expect(r.status).toBe(200);
      accepted++;
    }
    expect(accepted).toBe(600);
    // Another credential has its own budget.
    const fresh = await rawPost(c.instances[1].base, toolsCall("get_plan_and_limits"), {
      authorization: `Bearer ${token}`,
    });
    expect(fresh.status).toBe(200);
  });
});

/** Opens a signed-out form on one instance (its cookie and token) and posts it there. */
async function postForm(base: string, path: string, form: Record<string, string>): Promise<Response> {
  const page = await fetch(base + path);
  const cookie = page.headers.getSetCookie()[0].split(";")[0];
  const csrf = hidden(await page.text(), "csrf")!;
  return fetch(base + path, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", accept: "text/html", cookie },
    body: new URLSearchParams({ ...form, csrf }),
    redirect: "manual",
  });
}

describe("sign-in's slow-down and the forms' limits", () => {
  test("failed sign-ins spread over three instances lock the account on all of them", async () => {
    for (let i = 0; i < 4; i++) {
      const r = await postForm(c.instances[i % 3].base, "/signin", {
        email: "ada@x.io",
        password: `guess ${i}`,
      });
      expect(r.status).toBe(401);
    }
    // The fifth failure, on yet another instance, locks the account for 30 s everywhere.
    expect(
      (await postForm(c.instances[1].base, "/signin", { email: "ada@x.io", password: "guess 4" })).status,
    ).toBe(429);
    for (const inst of c.instances) {
      const r = await postForm(inst.base, "/signin", {
        email: "ada@x.io",
        password: "correct horse battery",
      });
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThanOrEqual(29);
    }
    clock.advance(31_000);
    const ok = await postForm(c.instances[2].base, "/signin", {
      email: "ada@x.io",
      password: "correct horse battery",
    });
    expect(ok.status).toBe(303);
  });

  test("the sign-up form's ten an hour per address hold over three instances", async () => {
    const bad = { workspace: "Acme", email: "a@example.test", password: "short" };
    for (let i = 0; i < FORM_LIMITS.signup; i++)
      expect((await postForm(c.instances[i % 3].base, "/signup", bad)).status).toBe(400);
    for (const inst of c.instances) {
      const r = await postForm(inst.base, "/signup", bad);
      expect(r.status).toBe(429);
      expect(Number(r.headers.get("retry-after"))).toBeGreaterThan(60);
    }
  });
});
