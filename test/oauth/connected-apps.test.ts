// Connected apps on the integrations page: the OAuth apps holding approvals or tokens for a workspace,
// who sees which, and revoking one (tokens stop at /mcp at once, the approval is forgotten).
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { connectApp, mcpStatus, refreshStatus, registerApp } from "../support/app-grants.ts";
import { startTestServer, type TestServer } from "../support/helpers.ts";
import {
  type Browser,
  formValues,
  type Member,
  member,
  parseForms,
  signedIn,
} from "../support/oauth-helpers.ts";

const PAGE = "/app/settings/integrations";

let t: TestServer;
let ann: Member; // admin of acme
let bob: Member; // member of acme
let zed: Member; // admin of zulu
let hostile: string; // client registered with a hostile name
let cursor: string;

beforeAll(async () => {
  t = await startTestServer();
  await t.org("acme", "growth");
  await t.org("zulu", "growth");
  ann = await member(t, "acme", "admin");
  bob = await member(t, "acme", "member");
  zed = await member(t, "zulu", "admin");
  hostile = await registerApp(t, "Claude <script>alert(1)</script>");
  cursor = await registerApp(t, "Cursor");
});
afterAll(() => t.close());

async function page(b: Browser, org = "acme"): Promise<string> {
  const res = await b.request(`${PAGE}?org=${org}`);
  expect(res.status).toBe(200);
  return res.text();
}

/** The revoke form of the row for this client and member, as the browser would submit it. */
function revokeForm(html: string, clientId: string, userId: number): URLSearchParams | undefined {
  const form = parseForms(html).find(
    (f) =>
      f.action.endsWith("/apps/revoke") &&
      f.inputs.some((i) => i.name === "client_id" && i.value === clientId) &&
      f.inputs.some((i) => i.name === "user_id" && i.value === String(userId)),
  );
  return form && formValues(form);
}

async function waitForLastUse(clientId: string): Promise<void> {
  for (let i = 0; i < 50; i++) {
    const r = await t.services.database.client.execute({
      sql: "SELECT 1 FROM oauth_families WHERE client_id = ? AND last_used_at IS NOT NULL",
      args: [clientId],
    });
    if (r.rows.length) return;
    await Bun.sleep(10);
  }
  throw new Error("last use never recorded");
}

describe("the list", () => {
  test("an admin sees every member's apps, escaped, with scopes and last use; a member only their own", async () => {
    const a = await signedIn(t, ann);
    const b = await signedIn(t, bob);
    const annTokens = await connectApp(t, a, hostile, { scopes: ["read"] });
    await connectApp(t, b, cursor);

    let html = await page(a);
    expect(html).toContain("Connected apps");
    expect(outsideAttributes(html)).not.toContain("<script>"); // attribute values only escape quotes
    expect(html).toContain("Claude &lt;script&gt;");
    expect(html).toContain("Cursor");
    expect(html).toContain(ann.email);
    expect(html).toContain(bob.email);
    expect(html).toContain("read, write"); // Bob's grant
    expect(revokeForm(html, hostile, ann.userId)).toBeDefined();
    expect(revokeForm(html, cursor, bob.userId)).toBeDefined();
    expect(html).toContain("not yet");

    expect(await mcpStatus(t, annTokens.access_token)).toBe(200);
    await waitForLastUse(hostile);
    html = await page(a);
    const row = html.slice(html.indexOf(`data-client-id="${hostile}"`));
    expect(row.slice(0, row.indexOf("</tr>"))).toContain(
      '<td data-label="Last used"><time datetime="2026-11-20T12:00:00.000Z">',
    );

    const mine = await page(b);
    expect(mine).toContain("Cursor");
    expect(mine).not.toContain("Claude &lt;script&gt;");
    expect(mine).not.toContain(ann.email);
    expect(revokeForm(mine, cursor, bob.userId)).toBeDefined();
  });

  test("another workspace's admin sees none of them", async () => {
    const z = await signedIn(t, zed);
    const html = await page(z, "zulu");
    expect(html).toContain("No connected apps.");
    expect(html).not.toContain("Cursor");
  });
});

describe("revoking", () => {
  test("a member revokes their own app: tokens stop at /mcp and the token endpoint, consent is asked again", async () => {
    const b = await signedIn(t, bob);
    const app = await registerApp(t, "Bob's agent");
    const first = await connectApp(t, b, app);
    expect(first.consentShown).toBe(true);
    const again = await connectApp(t, b, app); // remembered: no consent page
    expect(again.consentShown).toBe(false);
    expect(await mcpStatus(t, again.access_token)).toBe(200);

    const form = revokeForm(await page(b), app, bob.userId)!;
    const res = await b.post("/app/settings/integrations/apps/revoke", form);
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toContain("disconnected=1");
    const after = await (await b.request(res.headers.get("location")!)).text();
    expect(after).toContain("App access revoked");
    expect(revokeForm(after, app, bob.userId)).toBeUndefined();

    for (const tokens of [first, again]) {
      expect(await mcpStatus(t, tokens.access_token)).toBe(401);
      expect(await refreshStatus(t, app, tokens.refresh_token)).toBe(400);
    }
    const consent = await t.services.database.client.execute({
      sql: "SELECT 1 FROM oauth_consents WHERE client_id = ?",
      args: [app],
    });
    expect(consent.rows).toHaveLength(0);
    const back = await connectApp(t, b, app);
    expect(back.consentShown).toBe(true);
    expect(await mcpStatus(t, back.access_token)).toBe(200);
  });

  test("a member cannot revoke another member's app (403, still works)", async () => {
    const a = await signedIn(t, ann);
    const b = await signedIn(t, bob);
    const app = await registerApp(t, "Ann's agent");
    const tokens = await connectApp(t, a, app);
    const form = revokeForm(await page(a), app, ann.userId)!;
    form.set("csrf", new URLSearchParams(formValuesOf(await page(b))).get("csrf")!);
    const res = await b.post("/app/settings/integrations/apps/revoke", form);
    expect(res.status).toBe(403);
    expect(await res.text()).toContain("Only admins can disconnect apps that other members connected.");
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);
  });

  test("an admin revokes a member's app", async () => {
    const a = await signedIn(t, ann);
    const b = await signedIn(t, bob);
    const app = await registerApp(t, "Bob's other agent");
    const tokens = await connectApp(t, b, app);
    const res = await a.post(
      "/app/settings/integrations/apps/revoke",
      revokeForm(await page(a), app, bob.userId)!,
    );
    expect(res.status).toBe(303);
    expect(await mcpStatus(t, tokens.access_token)).toBe(401);
    expect(revokeForm(await page(b), app, bob.userId)).toBeUndefined();
  });

  test("CSRF, other workspaces and unknown apps change nothing", async () => {
    const a = await signedIn(t, ann);
    const z = await signedIn(t, zed);
    const app = await registerApp(t, "Kept agent");
    const tokens = await connectApp(t, a, app);
    const form = revokeForm(await page(a), app, ann.userId)!;

    const noToken = new URLSearchParams(form);
    noToken.delete("csrf");
    expect((await a.post("/app/settings/integrations/apps/revoke", noToken)).status).toBe(403);

    // zed is not in acme: 404; naming zulu instead finds no such grant there: 404
    const zForm = new URLSearchParams(form);
    zForm.set("csrf", new URLSearchParams(formValuesOf(await page(z, "zulu"))).get("csrf")!);
    expect((await z.post("/app/settings/integrations/apps/revoke", zForm)).status).toBe(404);
    zForm.set("org", "zulu");
    expect((await z.post("/app/settings/integrations/apps/revoke", zForm)).status).toBe(404);

    const unknown = new URLSearchParams(form);
    unknown.set("client_id", "rvc_nope");
    expect((await a.post("/app/settings/integrations/apps/revoke", unknown)).status).toBe(404);
    expect(await mcpStatus(t, tokens.access_token)).toBe(200);
  });
});

test("remembered approvals and their revocations rebuild from the log to the same rows", async () => {
  const dump = async () =>
    (await t.services.database.client.execute("SELECT * FROM oauth_consents ORDER BY 1, 2, 3")).rows.map(
      (r) => ({ ...r }),
    );
  const before = await dump();
  expect(before.length).toBeGreaterThan(0);
  await rebuildProjections(t.services.store);
  expect(await dump()).toEqual(before);
});

/** The page with every double-quoted attribute value emptied: what is left is markup and text. */
function outsideAttributes(html: string): string {
  return html.replace(/"[^"]*"/g, '""');
}

/** Any signed-in form's values (for the page's CSRF token). */
function formValuesOf(html: string): URLSearchParams {
  const form = parseForms(html).find((f) => f.method === "post" && f.inputs.some((i) => i.name === "csrf"));
  return formValues(form!);
}
