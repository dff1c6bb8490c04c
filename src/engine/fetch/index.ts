// The one fetcher for all outbound HTTP (docs/engine/fetch.md): manual redirects re-checked at every
// hop, the address guard with the DNS answer pinned for the connection, the rewrite table, robots.txt,
// one request at a time per host, a time limit over headers and body, a streaming byte cap and charset
// decoding. A hostile or broken site costs one failed fetch: every failure is a result, never a throw.
import { Readable, type Transform } from "node:stream";
import {
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  createZstdDecompress,
} from "node:zlib";
import { type Clock, systemClock } from "../../clock.ts";
import { type Config, DEMO_ORG } from "../../config.ts";
import { orgSlugById } from "../../db/queries/orgs.ts";
import { hostRefusal, notAllowedMessage } from "../../domain/hostname.ts";
import type { Services } from "../../services.ts";
import { bodyDecoder, decodeBody } from "./charset.ts";
import { HostGate, type HostTurns, realSleep, type Sleeper } from "./gate.ts";
import {
  BlockedAddressError,
  bareHost,
  isIpLiteral,
  publicAddresses,
  type Resolver,
  systemResolver,
} from "./guard.ts";
import { hostTurnsOf } from "./hostTurns.ts";
import { type RewriteRule, RewriteTable } from "./rewrite.ts";
import {
  ROBOTS_MAX_BYTES,
  RobotsCache,
  type RobotsRecord,
  type RobotsStore,
  type RobotsVerdict,
  robotsAllows,
  robotsLifetimeMs,
  verdictOf,
} from "./robots.ts";
import { robotsStoreOf } from "./robotsStore.ts";

export { isPublicAddress } from "./guard.ts";
export { parseRewrite, type RewriteRule } from "./rewrite.ts";

export interface FetchRequest {
  url: string;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Conditional GET: sent as If-None-Match / If-Modified-Since; a 304 answer is `notModified`. */
  etag?: string;
  lastModified?: string;
  /** Ask robots.txt first; default true for GET, false for POST (webhooks). */
  robots?: boolean;
  maxBytes?: number;
  timeoutMs?: number;
  /** Redirects followed before giving up with `too_many_redirects` (default 5; 0 follows none). */
  maxRedirects?: number;
  /** Also read an image answer (a site's icon): its bytes come back in `data`, its `text` empty. */
  image?: boolean;
  /** The longest robots.txt Crawl-delay this request waits for (a free brief's is lower than monitoring's). */
  crawlDelayCapMs?: number;
  /** The host serves many competitors (a job board provider, a public API), which several instances may be
   * reading at once: the request also takes the host's turn among them (`hostTurns`). */
  sharedHost?: boolean;
}

export type FetchErrorCode =
  | "invalid_url"
  | "blocked_address"
  | "outside_sites"
  | "robots_disallowed"
  | "timeout"
  | "too_large"
  | "too_many_redirects"
  | "http_error"
  | "network"
  | "unsupported_content";

export type FetchResult =
  | {
      ok: true;
      url: string;
      finalUrl: string;
      status: number;
      notModified: boolean;
      headers: Record<string, string>;
      contentType: string;
      text: string;
      bytes: number;
      /** The body's bytes, for an image read with `image: true`. */
      data?: Uint8Array;
      /** A text answer's bytes and the encoding `text` is read with, until `text` is first read (which decodes
       * them): a caller that only compares the body with one seen before need not decode it. Only on the
       * fetcher's own result. */
      raw?: { bytes: Uint8Array; encoding: string };
      etag?: string;
      lastModified?: string;
      redirects: string[];
      fetchedAt: string;
    }
  | {
      ok: false;
      url: string;
      finalUrl?: string;
      status?: number;
      /** An error answer's Retry-After header (webhook deliveries wait as long as it asks). */
      retryAfter?: string;
      error: FetchErrorCode;
      message: string;
      fetchedAt: string;
    };

export interface Fetcher {
  fetch(req: FetchRequest): Promise<FetchResult>;
}

export interface FetcherOptions {
  /** Sent with every request and matched against robots.txt groups by its first word ("RivalsBot"). */
  userAgent: string;
  /** Pause between two requests to one host (a longer Crawl-delay, up to 10 s, wins). Default 1000. */
  delayMs?: number;
  /** A longer least pause for some hosts (lower-case host name → ms): the web archive asks for about one
   * request a second (RIVALS_ARCHIVE_DELAY_MS) whatever RIVALS_FETCH_DELAY_MS says. */
  hostDelays?: Record<string, number>;
  /** Per request hop: headers and the whole body. Default 15000. */
  timeoutMs?: number;
  /** Decoded (decompressed) body bytes at most. Default 5 MB. */
  maxBytes?: number;
  /** Requests for a FROM origin are sent to its TO origin (exempt from the guard); a request for a TO
   * origin itself is guarded like any other, so only the origins the operator named reach a target. */
  rewrite?: RewriteRule[];
  /** Only the origins `rewrite` names are reached: any other request (a redirect hop, robots.txt) fails with
   * `outside_sites` before any name look-up or connection. A closed web: the demo's fictional sites. */
  confine?: boolean;
  /** Origins exempt from the address guard for this fetcher only: an operator-configured endpoint (the
   * language-model writer's base URL) is reachable by the one caller that owns a fetcher made with it. */
  exemptOrigins?: string[];
  /** Where the detail of a refused address goes (never to the caller). Default: a JSON line on stderr. */
  log?: (line: Record<string, unknown>) => void;
  clock?: Clock;
  /** How pauses are waited (tests pass one that moves their clock). */
  sleep?: Sleeper;
  /** DNS (default: the system resolver). */
  resolve?: Resolver;
  /** Where robots.txt answers are shared beyond this fetcher (the database); read when the fetcher's own
   * memory has none, so it may be given after the fetcher was made. */
  robotsStore?: RobotsStore;
  /** Turns at a host shared with other instances on one database, taken by a request on a `sharedHost`; read
   * per request, like `robotsStore`. */
  hostTurns?: HostTurns;
}

export const DEFAULT_DELAY_MS = 1000;
/** The Internet Archive's host (the CDX index and the captures), paced by RIVALS_ARCHIVE_DELAY_MS. */
export const ARCHIVE_HOST = "web.archive.org";
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_BYTES = 5 * 1024 * 1024;
export const MAX_REDIRECTS = 5;

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const ACCEPT =
  "text/html,application/xhtml+xml,application/xml;q=0.9,application/json;q=0.9,text/plain;q=0.8,*/*;q=0.5";

/** Images read when a request asks for one (`image: true`): the formats sites serve their icons in. */
export const IMAGE_TYPES = new Set([
  "image/png",
  "image/jpeg",
  "image/gif",
  "image/webp",
  "image/x-icon",
  "image/vnd.microsoft.icon",
  "image/svg+xml",
]);

/** Textual content the engine reads; anything else (images, PDFs, archives, media) is not read. */
export function isTextual(contentType: string): boolean {
  if (contentType === "" || contentType === "application/octet-stream") return true;
  if (contentType.startsWith("text/")) return true;
  if (/[/+](xml|json)$/.test(contentType)) return true;
  return [
    "application/javascript",
    "application/x-javascript",
    "application/ecmascript",
    "application/x-ndjson",
  ].includes(contentType);
}

/** Where a request for `url` goes once `address` passed the guard: the URL with the checked address as
 * its host (so nothing resolves the name again), and for https the original host name as TLS server
 * name — Bun's fetch sends it as SNI and verifies the certificate against it. The Host header is set by
 * the caller to `url.host`. */
export function pinnedTarget(url: URL, address: string): { href: string; tls?: { serverName: string } } {
  const literal = address.includes(":") ? `[${address}]` : address;
  const host = bareHost(url);
  return {
    href: `${url.protocol}//${literal}${url.port ? `:${url.port}` : ""}${url.pathname}${url.search}`,
    tls: url.protocol === "https:" && !isIpLiteral(host) ? { serverName: host } : undefined,
  };
}

/** A failure of one hop, carried up to the result. */
class HopError extends Error {
  constructor(
    readonly code: FetchErrorCode,
    message: string,
    readonly status?: number,
    readonly retryAfter?: string,
  ) {
    super(message);
  }
}

interface Hop {
  status: number;
  headers: Headers;
  /** The decoded body bytes, when read. */
  body?: Uint8Array;
}

const lowerHeaders = (h: Headers): Record<string, string> => {
  const out: Record<string, string> = {};
  h.forEach((v, k) => {
    out[k.toLowerCase()] = v;
  });
  return out;
};

const mimeOf = (h: Headers) => (h.get("content-type") ?? "").split(";")[0].trim().toLowerCase();

const errorText = (e: unknown): string => {
  const err = e as { code?: string; message?: string };
  const msg = (err?.message ?? String(e)).replace(/\. For more information, pass `verbose: true`.*$/, "");
  return err?.code && !msg.includes(err.code) ? `${err.code}: ${msg}` : msg;
};

class TimeoutSignal extends Error {}

const ACCEPT_ENCODING = "gzip, deflate, br, zstd";

interface DecodedStream {
  chunks: AsyncIterable<Uint8Array>;
  /** Stops reading and decoding (the connection is aborted by the caller). */
  close(): void;
}

async function* readerChunks(first: Uint8Array | undefined, reader: ReadableStreamDefaultReader<Uint8Array>) {
  if (first) yield first;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

/** The body's decoded bytes as a stream: node:zlib decoders emit small pieces with backpressure, so a
 * compression bomb is stopped at the cap after decoding little more than the cap. `undefined` for a
 * content coding we cannot decode. */
async function decodedStream(
  body: ReadableStream<Uint8Array>,
  encoding: string,
): Promise<DecodedStream | undefined> {
  const reader = body.getReader();
  const stop = () => {
    reader.cancel().catch(() => {});
  };
  if (encoding === "" || encoding === "identity")
    return { chunks: readerChunks(undefined, reader), close: stop };
  let first: Uint8Array | undefined;
  let decoder: Transform;
  if (encoding === "gzip" || encoding === "x-gzip") decoder = createGunzip();
  else if (encoding === "br") decoder = createBrotliDecompress();
  else if (encoding === "zstd") decoder = createZstdDecompress();
  else if (encoding === "deflate") {
    // "deflate" is zlib-wrapped by the standard; some servers send raw deflate: tell by the zlib header.
    const r = await reader.read();
    first = r.done ? undefined : r.value;
    const zlibHeader =
      !!first && first.length >= 2 && (first[0] & 0x0f) === 8 && ((first[0] << 8) | first[1]) % 31 === 0;
    decoder = zlibHeader || !first ? createInflate() : createInflateRaw();
  } else {
    stop();
    return undefined;
  }
  const input = Readable.from(readerChunks(first, reader), { objectMode: false });
  input.on("error", (e) => decoder.destroy(e));
  decoder.on("error", () => {});
  input.pipe(decoder);
  return {
    chunks: decoder,
    close: () => {
      input.destroy();
      decoder.destroy();
      stop();
    },
  };
}

/** `p`, or a rejection as soon as `signal` aborts (a name look-up counts against the time limit). */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}

export function createFetcher(opts: FetcherOptions): Fetcher {
  const clock = opts.clock ?? systemClock;
  const now = () => clock().getTime();
  const gate = new HostGate(now, opts.sleep ?? realSleep, () => opts.hostTurns);
  const resolve = opts.resolve ?? systemResolver;
  const table = new RewriteTable(opts.rewrite ?? []);
  const exempt = new Set(opts.exemptOrigins ?? []);
  const log = opts.log ?? ((line) => console.warn(JSON.stringify({ level: "warn", ...line })));
  const refuse = (host: string, detail: string): HopError => {
    log({ msg: "fetch refused", host, detail });
    return new HopError("blocked_address", notAllowedMessage(host));
  };
  const outside = (url: URL): HopError | undefined => {
    if (!opts.confine || table.target(url)) return undefined;
    log({ msg: "fetch outside the sites", host: url.host });
    return new HopError("outside_sites", `${url.host} is not one of the sites this workspace reads`);
  };
  // What failed on the network (refused, reset, an address and port) goes to the log only: callers show the
  // message to tenants and anonymous visitors, and it must not map what the server can reach.
  const unreachable = (url: URL, e: unknown): HopError => {
    log({ msg: "fetch failed", host: url.host, detail: errorText(e) });
    return new HopError("network", `${url.host} could not be reached`);
  };
  const robotsCache = new RobotsCache();
  const robotsInFlight = new Map<string, Promise<RobotsVerdict>>();
  const delayMs = opts.delayMs ?? DEFAULT_DELAY_MS;
  const defaultTimeout = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const defaultMax = opts.maxBytes ?? DEFAULT_MAX_BYTES;

  const crawlDelayOf = (origin: string): number => {
    const v = robotsCache.get(origin, now())?.verdict;
    return v?.kind === "rules" ? v.crawlDelayMs : 0;
  };
  const hostDelays = new Map(Object.entries(opts.hostDelays ?? {}));
  const pauseFor =
    (url: URL, crawlDelayCapMs = Number.POSITIVE_INFINITY) =>
    () =>
      Math.max(
        delayMs,
        hostDelays.get(bareHost(url).toLowerCase()) ?? 0,
        Math.min(crawlDelayOf(url.origin), crawlDelayCapMs),
      );

  /** One HTTP exchange for `url` (an original URL): rewritten or guarded and pinned, under the host's
   * gate, within `timeoutMs` for headers and body; the body is read only when `read` says so. */
  async function exchange(
    url: URL,
    init: { method: string; headers: Record<string, string>; body?: string },
    limits: {
      timeoutMs: number;
      maxBytes: number;
      truncate?: boolean;
      crawlDelayCapMs?: number;
      sharedHost?: boolean;
    },
    read: (status: number, headers: Headers) => boolean,
  ): Promise<Hop> {
    const host = bareHost(url).toLowerCase();
    return gate.run(host, pauseFor(url, limits.crawlDelayCapMs), limits.sharedHost ?? false, async () => {
      const path = `${url.pathname}${url.search}`;
      const headers: Record<string, string> = {
        accept: ACCEPT,
        "accept-encoding": ACCEPT_ENCODING,
        ...init.headers,
        host: url.host,
        "user-agent": opts.userAgent,
      };
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(new TimeoutSignal()), limits.timeoutMs);
      const timedOut = () => controller.signal.aborted;
      const timeoutError = () =>
        new HopError("timeout", `no answer within ${limits.timeoutMs / 1000} seconds`);
      try {
        const closed = outside(url);
        if (closed) throw closed;
        // Where to connect: the rewrite target, or the checked addresses of the host itself.
        const targets: { href: string; tls?: { serverName: string } }[] = [];
        const rewritten = table.target(url);
        if (rewritten) targets.push({ href: `${rewritten}${path}` });
        else if (exempt.has(url.origin)) targets.push({ href: url.href.replace(/#.*$/, "") });
        else {
          const host = bareHost(url);
          let addresses: string[];
          try {
            addresses = await untilAborted(publicAddresses(host, resolve), controller.signal);
          } catch (e) {
            if (timedOut()) throw timeoutError();
            if (e instanceof BlockedAddressError) throw refuse(host, e.detail);
            throw refuse(host, errorText(e));
          }
          for (const a of addresses.slice(0, 3)) targets.push(pinnedTarget(url, a));
        }
        let res: Response | undefined;
        let lastError: unknown;
        // Another address of the host is tried only when connecting failed, and only for a GET.
        for (const t of init.method === "GET" ? targets : targets.slice(0, 1)) {
          try {
            res = await fetch(t.href, {
              method: init.method,
              headers,
              body: init.body,
              redirect: "manual",
              // Decoded here, as a stream that stops at the cap (Bun's own decoding of deflate is not).
              decompress: false,
              signal: controller.signal,
              tls: t.tls,
            });
            break;
          } catch (e) {
            if (timedOut()) throw timeoutError();
            lastError = e;
          }
        }
        if (!res) throw unreachable(url, lastError);
        /** A body that stopped before its end: the time limit, else the connection (logged, never shown). */
        const cutShort = (e: unknown, status: number): Error => {
          if (timedOut()) return timeoutError();
          log({ msg: "fetch failed", host: url.host, detail: errorText(e) });
          return new HopError("network", `the answer from ${url.host} could not be read to its end`, status);
        };
        if (!read(res.status, res.headers)) {
          await res.body?.cancel().catch(() => {});
          return { status: res.status, headers: res.headers };
        }
        if (!res.body) return { status: res.status, headers: res.headers, body: new Uint8Array() };
        const declared = Number(res.headers.get("content-length") ?? "");
        // A declared length counts only without content coding (the decoded size is what is capped).
        if (!limits.truncate && !res.headers.get("content-encoding") && declared > limits.maxBytes) {
          await res.body.cancel().catch(() => {});
          throw new HopError("too_large", `the response is larger than ${limits.maxBytes} bytes`, res.status);
        }
        const encoding = (res.headers.get("content-encoding") ?? "").trim().toLowerCase();
        // A declared length under the cap, without content coding, is read natively in one piece (the
        // connection's framing ends the body there): no stream of small chunks to copy together in JavaScript.
        if (
          (encoding === "" || encoding === "identity") &&
          res.headers.has("content-length") &&
          Number.isInteger(declared) &&
          declared <= limits.maxBytes
        ) {
          try {
            return { status: res.status, headers: res.headers, body: await res.bytes() };
          } catch (e) {
            throw cutShort(e, res.status);
          }
        }
        const body = res.body;
        const chunks: Uint8Array[] = [];
        let size = 0;
        let stream: DecodedStream | undefined;
        try {
          stream = await decodedStream(body, encoding);
          if (!stream)
            throw new HopError(
              "unsupported_content",
              `content coding ${encoding} is not supported`,
              res.status,
            );
          for await (const value of stream.chunks) {
            if (size + value.byteLength > limits.maxBytes) {
              controller.abort();
              if (limits.truncate) {
                chunks.push(value.subarray(0, limits.maxBytes - size));
                size = limits.maxBytes;
                break;
              }
              throw new HopError(
                "too_large",
                `the response is larger than ${limits.maxBytes} bytes`,
                res.status,
              );
            }
            size += value.byteLength;
            chunks.push(value);
          }
        } catch (e) {
          if (e instanceof HopError) throw e;
          throw cutShort(e, res.status);
        } finally {
          stream?.close();
        }
        const bytes = new Uint8Array(size);
        let at = 0;
        for (const c of chunks) {
          bytes.set(c, at);
          at += c.byteLength;
        }
        return { status: res.status, headers: res.headers, body: bytes };
      } catch (e) {
        if (e instanceof HopError) throw e;
        if (timedOut()) throw timeoutError();
        throw unreachable(url, e);
      } finally {
        clearTimeout(timer);
        if (!controller.signal.aborted) controller.abort();
      }
    });
  }

  /** Fetches an origin's robots.txt: what it leaves to remember, with its lifetime. */
  async function loadRobots(origin: string): Promise<RobotsRecord> {
    const at = now();
    const rec = (outcome: RobotsRecord["outcome"], text: string, headers?: Headers): RobotsRecord => ({
      outcome,
      text,
      expiresAt: at + robotsLifetimeMs(outcome, headers, at),
    });
    const url = new URL(`${origin}/robots.txt`);
    let current = url;
    try {
      for (let hops = 0; ; hops++) {
        const hop = await exchange(
          current,
          { method: "GET", headers: { accept: "text/plain,*/*;q=0.5" } },
          // RFC 9309 2.5: at least 500 KiB are parsed; a longer file is cut there, not refused.
          { timeoutMs: defaultTimeout, maxBytes: ROBOTS_MAX_BYTES, truncate: true },
          (status) => status >= 200 && status < 300,
        );
        if (REDIRECT_STATUSES.has(hop.status)) {
          const location = hop.headers.get("location");
          if (!location || hops >= MAX_REDIRECTS) return rec("allow_all", "", hop.headers);
          current = new URL(location, current);
          if (current.protocol !== "http:" && current.protocol !== "https:")
            return rec("allow_all", "", hop.headers);
          continue;
        }
        if (hop.status >= 200 && hop.status < 300)
          return rec(
            "rules",
            decodeBody(hop.body ?? new Uint8Array(), hop.headers.get("content-type")),
            hop.headers,
          );
        if (hop.status === 429 || hop.status >= 500)
          return rec("unreachable", `robots.txt answered HTTP ${hop.status}`);
        return rec("allow_all", "", hop.headers);
      }
    } catch (e) {
      if (
        e instanceof HopError &&
        (e.code === "blocked_address" || e.code === "outside_sites" || e.code === "invalid_url")
      ) {
        // The origin itself is refused: so is every page of it. A redirect of robots.txt to a refused
        // address leaves no robots.txt to read, which allows everything (like a 404).
        if (current === url) throw e;
        return rec("allow_all", "");
      }
      return rec("unreachable", `robots.txt could not be read: ${(e as Error).message}`);
    }
  }

  /** The shared store's answer, else the origin's own (then shared). A store that fails costs a fetch of
   * robots.txt, never the page. */
  async function sharedRobots(origin: string): Promise<RobotsVerdict> {
    const store = opts.robotsStore;
    const stored = store ? await store.get(origin, now()).catch(() => undefined) : undefined;
    if (stored) {
      const v = verdictOf(origin, stored, opts.userAgent);
      robotsCache.set(origin, v, now(), stored.expiresAt);
      return v;
    }
    const fresh = await loadRobots(origin);
    if (store) await store.put(origin, fresh).catch(() => undefined);
    const v = verdictOf(origin, fresh, opts.userAgent);
    robotsCache.set(origin, v, now(), fresh.expiresAt);
    return v;
  }

  async function robotsFor(origin: string): Promise<RobotsVerdict> {
    const cached = robotsCache.get(origin, now());
    if (cached) return cached.verdict;
    let running = robotsInFlight.get(origin);
    if (!running) {
      running = sharedRobots(origin).finally(() => robotsInFlight.delete(origin));
      robotsInFlight.set(origin, running);
    }
    return running;
  }

  async function run(req: FetchRequest): Promise<FetchResult> {
    const fetchedAt = () => clock().toISOString();
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return {
        ok: false,
        url: req.url,
        error: "invalid_url",
        message: `${req.url} is not a URL`,
        fetchedAt: fetchedAt(),
      };
    }
    let method = req.method ?? "GET";
    let body = req.body;
    const useRobots = req.robots ?? method === "GET";
    const maxRedirects = req.maxRedirects ?? MAX_REDIRECTS;
    const limits = {
      timeoutMs: req.timeoutMs ?? defaultTimeout,
      maxBytes: req.maxBytes ?? defaultMax,
      crawlDelayCapMs: req.crawlDelayCapMs,
      sharedHost: req.sharedHost,
    };
    const redirects: string[] = [];
    let extra: Record<string, string> = { ...(req.headers ?? {}) };
    if (req.etag) extra["if-none-match"] = req.etag;
    if (req.lastModified) extra["if-modified-since"] = req.lastModified;
    const fail = (e: HopError, at?: URL): FetchResult => ({
      ok: false,
      url: req.url,
      ...(at ? { finalUrl: at.href } : {}),
      ...(e.status !== undefined ? { status: e.status } : {}),
      ...(e.retryAfter ? { retryAfter: e.retryAfter } : {}),
      error: e.code,
      message: e.message,
      fetchedAt: fetchedAt(),
    });
    for (;;) {
      try {
        if (url.protocol !== "http:" && url.protocol !== "https:")
          throw new HopError("invalid_url", `${url.protocol} URLs are not fetched`);
        if (url.username || url.password)
          throw new HopError("invalid_url", "URLs with credentials are not fetched");
        const closed = outside(url);
        if (closed) throw closed;
        const host = bareHost(url);
        const refused = table.target(url) || exempt.has(url.origin) ? undefined : hostRefusal(host);
        if (refused) throw refuse(host, `${host} ${refused}`);
        if (useRobots && url.pathname !== "/robots.txt") {
          const verdict = await robotsFor(url.origin);
          if (!robotsAllows(verdict, url, opts.userAgent))
            throw new HopError(
              "robots_disallowed",
              verdict.kind === "unreachable"
                ? `${verdict.reason}; the site is not fetched until it can be read`
                : `robots.txt of ${url.host} disallows ${url.pathname}`,
            );
        }
        const hop = await exchange(url, { method, headers: extra, body }, limits, (status, headers) => {
          if (status < 200 || status >= 300) return false;
          return isTextual(mimeOf(headers)) || (req.image === true && IMAGE_TYPES.has(mimeOf(headers)));
        });
        if (REDIRECT_STATUSES.has(hop.status)) {
          const location = hop.headers.get("location");
          if (!location)
            throw new HopError("http_error", `HTTP ${hop.status} without a Location`, hop.status);
          if (redirects.length >= maxRedirects)
            throw new HopError(
              "too_many_redirects",
              maxRedirects === 0
                ? `HTTP ${hop.status}: redirects are not followed`
                : `more than ${maxRedirects} redirects`,
              hop.status,
            );
          let next: URL;
          try {
            next = new URL(location, url);
          } catch {
            throw new HopError("invalid_url", `HTTP ${hop.status} to an invalid Location`, hop.status);
          }
          // A rewritten server that names its own (target) origin means the original origin.
          const target = table.target(url);
          if (target && next.origin === target) next = new URL(`${url.origin}${next.pathname}${next.search}`);
          next.hash = "";
          redirects.push(url.href);
          if (next.origin !== url.origin) {
            const { authorization: _a, cookie: _c, ...rest } = extra;
            extra = rest;
          }
          if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === "POST")) {
            method = "GET";
            body = undefined;
            delete extra["content-type"];
          }
          url = next;
          continue;
        }
        const headers = lowerHeaders(hop.headers);
        const base = {
          url: req.url,
          finalUrl: url.href,
          status: hop.status,
          headers,
          contentType: mimeOf(hop.headers),
          redirects,
          fetchedAt: fetchedAt(),
        };
        if (hop.status === 304)
          return {
            ok: true,
            ...base,
            notModified: true,
            text: "",
            bytes: 0,
            etag: headers.etag ?? req.etag,
            lastModified: headers["last-modified"] ?? req.lastModified,
          };
        if (hop.status >= 400 || hop.status < 200)
          throw new HopError("http_error", `HTTP ${hop.status}`, hop.status, headers["retry-after"]);
        if (hop.status >= 300) throw new HopError("http_error", `HTTP ${hop.status}`, hop.status);
        // A POST (a webhook) succeeded whatever its answer's type; only reading that answer is skipped.
        if (!hop.body && method === "POST")
          return { ok: true, ...base, notModified: false, text: "", bytes: 0 };
        if (!hop.body)
          throw new HopError(
            "unsupported_content",
            `${base.contentType || "this content"} is not read`,
            hop.status,
          );
        if (req.image && IMAGE_TYPES.has(base.contentType))
          return {
            ok: true,
            ...base,
            notModified: false,
            text: "",
            bytes: hop.body.byteLength,
            data: hop.body,
          };
        // The bytes are kept until the text is decoded from them, not beside it.
        let payload: Uint8Array | undefined = hop.body;
        const decoder = bodyDecoder(payload, hop.headers.get("content-type"));
        let text: string | undefined;
        const read: FetchResult = {
          ok: true,
          ...base,
          notModified: false,
          get text() {
            if (text === undefined) {
              text = decoder.decode(payload);
              payload = undefined;
            }
            return text;
          },
          bytes: payload.byteLength,
          etag: headers.etag,
          lastModified: headers["last-modified"],
        };
        // Not enumerable: a copy that replaces the text ({ ...r, text }) does not carry bytes that are no longer it.
        Object.defineProperty(read, "raw", {
          get: () => (payload ? { bytes: payload, encoding: decoder.encoding } : undefined),
        });
        return read;
      } catch (e) {
        if (e instanceof HopError) return fail(e, url);
        return fail(unreachable(url, e), url);
      }
    }
  }

  return {
    fetch: (req) =>
      run(req).catch((e) => {
        log({ msg: "fetch failed", url: req.url, detail: errorText(e) });
        return {
          ok: false,
          url: req.url,
          error: "network",
          message: "the site could not be reached",
          fetchedAt: clock().toISOString(),
        };
      }),
  };
}

/** The User-Agent of every request: names the bot, where it explains itself and, when the operator gave one
 * (RIVALS_BOT_CONTACT), whom to contact — SEC's EDGAR refuses automated requests that declare no contact. */
export function userAgentFor(baseUrl: string, contact?: string): string {
  return `RivalsBot/1.0 (+${baseUrl}/bot${contact ? `; ${contact.replace(/[()\r\n;]/g, "")}` : ""})`;
}

/** Who a request is made for. Each caller has its own exemptions from the address guard, and only its
 * own: `tenant` (every address a workspace supplies: sites, pages, boards, feeds, icons) has none; `llm`
 * reaches the operator's model server; `webhook` (team-chat deliveries, also tenant-supplied) reaches
 * only the origins the operator listed in RIVALS_UNSAFE_WEBHOOK_ORIGINS. */
export type FetchCaller = "tenant" | "llm" | "webhook" | "sso";

function exemptionsOf(config: Config, caller: FetchCaller): string[] {
  if (caller === "llm") return config.llm ? [new URL(config.llm.baseUrl).origin] : [];
  // The single sign-on provider the operator configured may be on a private network (its own origin only).
  if (caller === "sso") return config.oidc ? [new URL(config.oidc.issuer).origin] : [];
  if (caller === "webhook") return config.unsafeWebhookOrigins;
  return [];
}

/** The fetcher options a configuration gives one caller. */
export function fetcherOptions(config: Config, caller: FetchCaller = "tenant"): FetcherOptions {
  return {
    userAgent: userAgentFor(config.baseUrl, config.botContact),
    // A sign-in makes a few requests to its provider in a row: the politeness delay is for crawling sites.
    delayMs: caller === "sso" ? 0 : config.fetchDelayMs,
    hostDelays: { [ARCHIVE_HOST]: config.archiveDelayMs },
    timeoutMs: config.fetchTimeoutMs,
    maxBytes: config.fetchMaxBytes,
    rewrite: config.fetchRewrite,
    exemptOrigins: exemptionsOf(config, caller),
  };
}

const processFetchers = new WeakMap<
  Config,
  Map<FetchCaller, { fetcher: Fetcher; options: FetcherOptions }>
>();

/** What a fetcher shares with other processes through the database: robots.txt answers, and the turns at a
 * host when several instances may share it. */
export interface FetchShared {
  robots: RobotsStore;
  turns?: HostTurns;
}

/** The process-wide fetcher of one caller for a configuration (its host gates and robots cache are shared
 * by everything that fetches for that caller). `shared`: what it shares with other processes (the database),
 * made once, by the first caller that gives it. */
export function fetcherFor(
  config: Config,
  caller: FetchCaller = "tenant",
  shared?: () => FetchShared,
): Fetcher {
  let byCaller = processFetchers.get(config);
  if (!byCaller) {
    byCaller = new Map();
    processFetchers.set(config, byCaller);
  }
  let f = byCaller.get(caller);
  if (!f) {
    const options = fetcherOptions(config, caller);
    f = { fetcher: createFetcher(options), options };
    byCaller.set(caller, f);
  }
  if (shared && !f.options.robotsStore) {
    const { robots, turns } = shared();
    f.options.robotsStore = robots;
    f.options.hostTurns = turns;
  }
  return f.fetcher;
}

/** The fetcher of work done for tenants and visitors, sharing robots.txt answers and turns at a host with the
 * other processes on the database. */
export function tenantFetcher(s: Pick<Services, "config" | "database" | "store" | "clock">): Fetcher {
  return fetcherFor(s.config, "tenant", () => ({ robots: robotsStoreOf(s), turns: hostTurnsOf(s) }));
}

const demoFetchers = new WeakMap<Config, Fetcher>();
const demoOrgIds = new WeakMap<Config, Map<number, boolean>>();

/** The fetcher of one workspace's engine work (research, cycles, history, positioning). The demo workspace
 * (DEMO_ORG) reads only the demo's fictional web (`config.demoSites`, which `serve --demo` points at its own
 * listener) and nothing else, in every process: where no demo web is served, it reaches nothing. Every other
 * workspace has the tenant fetcher. `confined` says which (a confined workspace renders no page in a browser,
 * whose requests would not go through this fetcher). */
export async function workspaceFetcher(
  s: Pick<Services, "config" | "database" | "store" | "clock">,
  orgId: number,
): Promise<{ fetcher: Fetcher; confined: boolean }> {
  let known = demoOrgIds.get(s.config);
  if (!known) {
    known = new Map();
    demoOrgIds.set(s.config, known);
  }
  let demo = known.get(orgId);
  if (demo === undefined) {
    demo = (await orgSlugById(s.database, orgId)) === DEMO_ORG;
    known.set(orgId, demo);
  }
  if (!demo) return { fetcher: tenantFetcher(s), confined: false };
  let f = demoFetchers.get(s.config);
  if (!f) {
    f = createFetcher({ ...fetcherOptions(s.config), rewrite: s.config.demoSites, confine: true });
    demoFetchers.set(s.config, f);
  }
  return { fetcher: f, confined: true };
}
