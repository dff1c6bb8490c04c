// JSON answers compressed for clients that accept it: the tool endpoint's lists and results and the read API's
// pages are large and repetitive (a tools/list shrinks to about a fifth). One hook for every route; streams
// (server-sent events) and anything already encoded pass untouched.
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { Elysia } from "elysia";

/** Below this a compressed body saves less than its headers cost. */
const MIN_BYTES = 1024;

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\b/i;

/** The coding to answer with: br when accepted, else gzip, else none (a q of 0 refuses one). */
export function chooseEncoding(accept: string | null): "br" | "gzip" | undefined {
  if (!accept) return undefined;
  const q = new Map<string, number>();
  for (const part of accept.toLowerCase().split(",")) {
    const [name, ...params] = part.trim().split(";");
    const qv = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    q.set(name!.trim(), qv ? Number(qv.slice(2)) || 0 : 1);
  }
  const ok = (c: string) => (q.get(c) ?? q.get("*") ?? 0) > 0;
  if (ok("br")) return "br";
  if (ok("gzip")) return "gzip";
  return undefined;
}

/** The coding `response` gets for `request`, or undefined to send it as it is. */
function codingFor(request: Request, response: Response): "br" | "gzip" | undefined {
  const type = response.headers.get("content-type") ?? "";
  if (!JSON_TYPE.test(type) || response.headers.has("content-encoding") || response.body === null)
    return undefined;
  if (request.method === "HEAD") return undefined;
  return chooseEncoding(request.headers.get("accept-encoding"));
}

async function compressed(response: Response, coding: "br" | "gzip"): Promise<Response> {
  const body = new Uint8Array(await response.arrayBuffer());
  const headers = new Headers(response.headers);
  // A small body goes as it is to every client: it does not vary by encoding.
  if (body.byteLength < MIN_BYTES)
    return new Response(body, { status: response.status, statusText: response.statusText, headers });
  const vary = headers.get("vary");
  headers.set("vary", vary ? `${vary}, Accept-Encoding` : "Accept-Encoding");
  const out =
    coding === "br"
      ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
      : gzipSync(body, { level: 6 });
  headers.set("content-encoding", coding);
  headers.delete("content-length");
  // The entity tag stays the page's (the read API's If-None-Match answers 304 whatever the encoding); caches
  // keep the encodings apart by Vary.
  return new Response(out, { status: response.status, statusText: response.statusText, headers });
}

/** The hook, registered once for the whole app. It answers synchronously when it leaves a response alone:
 * Elysia takes a promise of nothing as an empty response. */
export function compression() {
  return new Elysia({ name: "compression" }).mapResponse({ as: "global" }, ({ request, responseValue }) => {
    if (!(responseValue instanceof Response)) return;
    const coding = codingFor(request, responseValue);
    if (coding) return compressed(responseValue, coding);
  });
}
