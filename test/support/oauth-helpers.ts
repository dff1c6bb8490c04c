// Drives the OAuth pages as a browser would, with fetch: a cookie jar, the real /signin form, and the
// consent form (hidden fields, CSRF token, checkboxes and radios parsed from the HTML).
import { createHash, randomBytes } from "node:crypto";
import { createSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import type { TestServer } from "./helpers.ts";

export class CookieJar {
  private cookies = new Map<string, string>();
  take(res: Response): void {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      if (value === "" || /max-age=0/i.test(c)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
  header(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  }
  set(raw: string): void {
    const [pair] = raw.split(";");
    const i = pair.indexOf("=");
    this.cookies.set(pair.slice(0, i), pair.slice(i + 1));
  }
}

function unescapeHtml(s: string): string {
  return s
    .replaceAll("&quot;", '"')
    .replaceAll("&#39;", "'")
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");
}

export interface FormInput {
  type: string;
  name: string;
  value: string;
  checked: boolean;
  disabled: boolean;
}

export interface ParsedForm {
  action: string;
  method: string;
  inputs: FormInput[];
  buttons: { name: string; value: string }[];
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}(?:="([^"]*)"|='([^']*)'|(?=[\\s/>]))`, "i").exec(tag);
  if (!m) return undefined;
  return unescapeHtml(m[1] ?? m[2] ?? "");
}

/** The forms of a page, with their inputs and submit buttons. */
export function parseForms(html: string): ParsedForm[] {
  const forms: ParsedForm[] = [];
  for (const m of html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)) {
    const [, open, inner] = m;
    const inputs = [...inner.matchAll(/<input\b[^>]*>/gi)].map(([tag]) => ({
      type: (attr(tag, "type") ?? "text").toLowerCase(),
      name: attr(tag, "name") ?? "",
      value: attr(tag, "value") ?? "",
      checked: attr(tag, "checked") !== undefined,
      disabled: attr(tag, "disabled") !== undefined,
    }));
    const buttons = [...inner.matchAll(/<button\b[^>]*>/gi)].map(([tag]) => ({
      name: attr(tag, "name") ?? "",
      value: attr(tag, "value") ?? "",
    }));
    forms.push({
      action: attr(`<form${open}>`, "action") ?? "",
      method: (attr(`<form${open}>`, "method") ?? "get").toLowerCase(),
      inputs,
      buttons,
    });
  }
  return forms;
}

/** The values a browser would submit for a form (checked boxes only, enabled fields only). */
export function formValues(form: ParsedForm, button?: { name: string; value: string }): URLSearchParams {
  const p = new URLSearchParams();
  for (const i of form.inputs) {
    if (!i.name || i.disabled) continue;
    if ((i.type === "checkbox" || i.type === "radio") && !i.checked) continue;
    p.append(i.name, i.value);
  }
  if (button?.name) p.append(button.name, button.value);
  return p;
}

/** A browser-like session against the test server: follows same-site redirects, keeps cookies. */
export class Browser {
  jar = new CookieJar();
  base: string;
  constructor(public t: TestServer) {
    this.base = t.base;
  }

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const url = path.startsWith("http") ? path : this.base + path;
    const headers = new Headers(init.headers);
    const cookie = this.jar.header();
    if (cookie) headers.set("cookie", cookie);
    if (!headers.has("accept")) headers.set("accept", "text/html");
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    this.jar.take(res);
    return res;
  }

  async post(path: string, form: URLSearchParams): Promise<Response> {
    return this.request(path, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: new URL(this.base).origin },
      body: form.toString(),
    });
  }

  /** Signs in through the real /signin form (the `next` it redirects to is returned). */
  async signIn(email: string, password: string, next?: string): Promise<Response> {
    const page = await this.request(`/signin${next ? `?next=${encodeURIComponent(next)}` : ""}`);
    const html = await page.text();
    if (page.status === 404) {
      // Until the sign-in page exists: a session made directly, as /signin would make it.
      const r = await this.t.services.database.client.execute({
        sql: "SELECT id FROM users WHERE email = ?",
        args: [email],
      });
      this.jar.set((await createSession(this.t.services, Number(r.rows[0].id))).cookie);
      return new Response(null, { status: 303, headers: { location: next ?? "/app" } });
    }
    if (page.status !== 200) throw new Error(`GET /signin answered ${page.status}`);
    const form = parseForms(html).find((f) => f.inputs.some((i) => i.type === "password"));
    if (!form) throw new Error("no sign-in form on /signin");
    const values = formValues(form);
    values.set(form.inputs.find((i) => i.type === "email" || i.name === "email")!.name, email);
    values.set(form.inputs.find((i) => i.type === "password")!.name, password);
    const res = await this.post(form.action || "/signin", values);
    if (res.status !== 303 && res.status !== 302)
      throw new Error(`sign-in failed: ${res.status} ${(await res.text()).slice(0, 500)}`);
    return res;
  }
}

export interface Member {
  email: string;
  password: string;
  userId: number;
}

let seq = 0;
/** Adds a member (the members engineer's command) with a password. */
export async function member(
  t: TestServer,
  org: string,
  role: "admin" | "member" = "admin",
): Promise<Member> {
  const email = `person${++seq}-${org}@example.test`;
  const password = "correct horse battery staple";
  const r = await addMember(t.services.store, { org, email, role, password, name: `Person ${seq}` });
  return { email, password, userId: r.user_id };
}

/** A signed-in browser for the member: the real /signin form when the page exists, else a session row. */
export async function signedIn(t: TestServer, m: Member): Promise<Browser> {
  const b = new Browser(t);
  await b.signIn(m.email, m.password);
  return b;
}

export interface ConsentChoice {
  decision?: "approve" | "deny";
  /** Scopes to leave ticked; default: as shown. */
  scopes?: string[];
  /** org id to choose; default: the first enabled radio. */
  orgId?: number;
}

/** Opens an authorization URL in the browser: signs in when sent to /signin, approves or denies on the
 * consent page, and returns the redirect the client receives (or the response that stopped the flow). */
export async function authorizeInBrowser(
  b: Browser,
  url: string,
  choice: ConsentChoice = {},
  login?: Member,
): Promise<{ location?: string; response: Response; consentShown: boolean; html?: string }> {
  let res = await b.request(url);
  let consentShown = false;
  for (let hop = 0; hop < 5; hop++) {
    const loc = res.headers.get("location");
    if ((res.status === 302 || res.status === 303) && loc) {
      const target = new URL(loc, b.base);
      if (target.origin === new URL(b.base).origin && target.pathname === "/signin") {
        if (!login) throw new Error("sign-in needed but no member given");
        await res.body?.cancel();
        const done = await b.signIn(
          login.email,
          login.password,
          target.searchParams.get("next") ?? undefined,
        );
        res = await b.request(done.headers.get("location") ?? url);
        continue;
      }
      if (target.origin === new URL(b.base).origin && target.pathname === "/oauth/authorize") {
        await res.body?.cancel();
        res = await b.request(target.href);
        continue;
      }
      return { location: loc, response: res, consentShown };
    }
    if (res.status !== 200) return { response: res, consentShown, html: await res.text() };
    const html = await res.text();
    const form = parseForms(html).find((f) => f.action.endsWith("/oauth/authorize"));
    if (!form) return { response: res, consentShown, html };
    consentShown = true;
    const decision = choice.decision ?? "approve";
    const button = form.buttons.find((x) => x.name === "decision" && x.value === decision);
    if (!button) return { response: res, consentShown, html };
    for (const i of form.inputs) {
      if (i.type === "checkbox" && i.name === "grant_scope" && choice.scopes)
        i.checked = choice.scopes.includes(i.value);
      if (i.type === "radio" && i.name === "org_id" && choice.orgId !== undefined)
        i.checked = i.value === String(choice.orgId);
    }
    const values = formValues(form, button);
    if (choice.orgId !== undefined && !values.has("org_id")) values.set("org_id", String(choice.orgId));
    res = await b.post(form.action, values);
    const after = res.headers.get("location");
    if ((res.status === 303 || res.status === 302) && after)
      return { location: after, response: res, consentShown };
    return { response: res, consentShown, html: await res.text() };
  }
  throw new Error("too many redirects");
}

/** A PKCE pair (S256): the verifier the client keeps and the challenge it sends to /oauth/authorize. */
export function pkce(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString("base64url");
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") };
}

/** POSTs a form to the token endpoint as a client does: no cookies, no browser. */
export function postToken(t: TestServer, fields: Record<string, string>): Promise<Response> {
  return fetch(`${t.base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields),
  });
}

/** Redeems the code of an authorization redirect for tokens for the server's /mcp resource. The
 * response is returned unread, so the caller checks its status. */
export function redeemCode(
  t: TestServer,
  location: string,
  client: { clientId: string; redirectUri: string; verifier: string },
): Promise<Response> {
  return postToken(t, {
    grant_type: "authorization_code",
    code: new URL(location).searchParams.get("code")!,
    redirect_uri: client.redirectUri,
    code_verifier: client.verifier,
    client_id: client.clientId,
    resource: `${t.base}/mcp`,
  });
}

/** The `error` code of an RFC 6749 error body. */
export async function oauthError(res: Response): Promise<string> {
  return ((await res.json()) as { error: string }).error;
}
