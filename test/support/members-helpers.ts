// A browser in miniature for the member tests: a cookie jar per origin, forms posted like a browser does,
// redirects followed by hand so each hop can be checked.

export class Jar {
  private cookies = new Map<string, Map<string, string>>();

  store(url: string, res: Response): void {
    const origin = new URL(url).origin;
    const jar = this.cookies.get(origin) ?? new Map<string, string>();
    for (const c of res.headers.getSetCookie()) {
      const [pair, ...attrs] = c.split(";");
      const i = pair.indexOf("=");
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const expired = attrs.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (expired || value === "") jar.delete(name);
      else jar.set(name, value);
    }
    this.cookies.set(origin, jar);
  }

  header(url: string): string {
    const jar = this.cookies.get(new URL(url).origin);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join("; ") : "";
  }

  get(url: string, name: string): string | undefined {
    return this.cookies.get(new URL(url).origin)?.get(name);
  }

  async fetch(url: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    const cookie = this.header(url);
    if (cookie) headers.set("cookie", cookie);
    if (!headers.has("accept")) headers.set("accept", "text/html");
    const res = await fetch(url, { ...init, headers, redirect: "manual" });
    this.store(url, res);
    return res;
  }

  /** POSTs a form as application/x-www-form-urlencoded. */
  post(url: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Response> {
    return this.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  }
}

/** The value of a hidden input in a page. */
export function hidden(html: string, name: string): string | undefined {
  const re = new RegExp(
    `<input[^>]*name="${name}"[^>]*value="([^"]*)"|<input[^>]*value="([^"]*)"[^>]*name="${name}"`,
  );
  const m = re.exec(html);
  const v = m?.[1] ?? m?.[2];
  return v === undefined
    ? undefined
    : v.replaceAll("&amp;", "&").replaceAll("&#34;", '"').replaceAll("&quot;", '"');
}

/** Follows redirects (GET) from a response, carrying cookies, until a non-redirect or `stopAt` matches. */
export async function follow(
  jar: Jar,
  from: string,
  res: Response,
  stopAt?: (url: string) => boolean,
): Promise<{ url: string; res: Response }> {
  let url = from;
  for (let hops = 0; hops < 20; hops++) {
    if (res.status < 300 || res.status >= 400) return { url, res };
    const loc = res.headers.get("location");
    if (!loc) return { url, res };
    url = new URL(loc, url).href;
    if (stopAt?.(url)) return { url, res };
    res = await jar.fetch(url);
  }
  throw new Error("too many redirects");
}
