// Pages that need a browser (RIVALS_BROWSER): one Chromium process (started on first use, or a running one
// reached at a ws:// DevTools endpoint), a few pages at a time, each in its own browser context that is
// thrown away after. Every request a page makes is intercepted (the DevTools Fetch domain) and answered
// through the fetcher — its address guard, robots.txt and rewrite table — or refused; images, fonts and media
// are never loaded. A render has a time limit, a request limit and a byte limit; a browser that dies is
// started again for the next page. Rendering runs inside the cycle and research, never in an API request.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { type Fetcher, isTextual } from "../fetch/index.ts";
import { Cdp } from "./cdp.ts";

export type RenderResult =
  | { ok: true; html: string; requests: number; refused: number }
  | { ok: false; error: "browser" | "timeout" | "too_large"; message: string };

export interface RendererOptions {
  /** A Chromium executable, or the ws:// DevTools endpoint of a running browser. */
  browser: string;
  /** Answers every request a page makes (the tenant's fetcher, without per-host pauses). */
  fetcher: Fetcher;
  /** Pages rendered at once. Default 2. */
  concurrency?: number;
  /** For one page, from navigation to its DOM. Default 20 s. */
  timeoutMs?: number;
  /** Requests one page may make. Default 150. */
  maxRequests?: number;
  /** Bytes of all responses of one page, and of its rendered HTML. Default 10 MB. */
  maxBytes?: number;
  /** The network is idle when nothing was requested or answered for this long. Default 500 ms. */
  idleMs?: number;
}

/** What the served HTML already is, so the page's own document is not fetched twice. */
export interface Served {
  url: string;
  text: string;
  contentType: string;
}

const NOT_LOADED = new Set(["Image", "Media", "Font", "Ping", "CSPViolationReport", "Manifest"]);
const CHROMIUM_FLAGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-extensions",
  "--disable-dev-shm-usage",
  "--mute-audio",
  "--remote-debugging-address=127.0.0.1",
  "--remote-debugging-port=0",
];
const START_TIMEOUT_MS = 15_000;
const DROPPED_HEADERS = new Set(["content-encoding", "content-length", "transfer-encoding", "content-type"]);

const base64 = (text: string) => Buffer.from(text, "utf8").toString("base64");

class Slots {
  private waiting: (() => void)[] = [];
  constructor(private free: number) {}
  async take(): Promise<() => void> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    return () => {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    };
  }
}

export class Renderer {
  private cdp?: Promise<Cdp>;
  private proc?: Subprocess;
  private profile?: string;
  private slots: Slots;
  private readonly timeoutMs: number;
  private readonly maxRequests: number;
  private readonly maxBytes: number;
  private readonly idleMs: number;
  /** Browser processes started so far (a restart after a crash is the second). */
  launches = 0;

  constructor(private opts: RendererOptions) {
    this.slots = new Slots(opts.concurrency ?? 2);
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.maxRequests = opts.maxRequests ?? 150;
    this.maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
    this.idleMs = opts.idleMs ?? 500;
  }

  /** The page at `served.url` as the browser builds it. Never throws. */
  async render(served: Served): Promise<RenderResult> {
    const release = await this.slots.take();
    try {
      const cdp = await this.connection();
      return await this.renderWith(cdp, served);
    } catch (e) {
      return { ok: false, error: "browser", message: `the browser failed: ${(e as Error)?.message ?? e}` };
    } finally {
      release();
    }
  }

  /** Stops the browser this renderer started. */
  async close(): Promise<void> {
    const cdp = this.cdp;
    this.cdp = undefined;
    if (cdp) (await cdp.catch(() => undefined))?.close();
    this.stopProcess();
  }

  /** Kills the browser this renderer started, at once (process exit, where nothing awaited runs). */
  kill(): void {
    this.cdp = undefined;
    this.stopProcess();
  }

  /** The process's pid, while this renderer runs one. */
  get pid(): number | undefined {
    return this.proc && this.proc.exitCode === null ? this.proc.pid : undefined;
  }

  private connection(): Promise<Cdp> {
    if (!this.cdp) {
      const p = this.start();
      this.cdp = p;
      p.then(
        (c) => c.whenClosed(() => this.forget(p)),
        () => this.forget(p),
      );
    }
    return this.cdp;
  }

  private forget(p: Promise<Cdp>): void {
    if (this.cdp === p) this.cdp = undefined;
    this.stopProcess();
  }

  private async start(): Promise<Cdp> {
    this.launches++;
    if (/^wss?:\/\//.test(this.opts.browser)) return Cdp.connect(this.opts.browser, START_TIMEOUT_MS);
    this.profile = mkdtempSync(join(tmpdir(), "rivals-browser-"));
    const proc = Bun.spawn(
      [this.opts.browser, ...CHROMIUM_FLAGS, `--user-data-dir=${this.profile}`, "about:blank"],
      {
        stdin: "ignore",
        stdout: "ignore",
        stderr: "pipe",
      },
    );
    this.proc = proc;
    const url = await devtoolsUrl(proc, START_TIMEOUT_MS);
    const cdp = await Cdp.connect(url, START_TIMEOUT_MS);
    proc.exited.then(() => cdp.close());
    return cdp;
  }

  private stopProcess(): void {
    if (this.proc && this.proc.exitCode === null) this.proc.kill("SIGKILL");
    this.proc = undefined;
    if (this.profile) rmSync(this.profile, { recursive: true, force: true });
    this.profile = undefined;
  }

  private async renderWith(cdp: Cdp, served: Served): Promise<RenderResult> {
    const { browserContextId } = await cdp.send<{ browserContextId: string }>("Target.createBrowserContext", {
      disposeOnDetach: true,
    });
    const unsubscribe: (() => void)[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
      const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", {
        url: "about:blank",
        browserContextId,
      });
      const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", {
        targetId,
        flatten: true,
      });
      const state = { requests: 0, refused: 0, bytes: 0, inflight: 0, last: Date.now(), loaded: false };
      let overLimit: RenderResult | undefined;
      const send = (method: string, params: object) => cdp.send(method, params, sessionId).catch(() => ({}));
      unsubscribe.push(
        cdp.on("Page.loadEventFired", sessionId, () => {
          state.loaded = true;
        }),
        cdp.on("Fetch.requestPaused", sessionId, (p) => {
          state.inflight++;
          state.last = Date.now();
          this.answer(p, served, state, send, (r) => {
            overLimit ??= r;
          }).finally(() => {
            state.inflight--;
            state.last = Date.now();
          });
        }),
      );
      await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] }, sessionId);
      await cdp.send("Page.enable", {}, sessionId);
      const deadline = new Promise<RenderResult>((resolve) => {
        timer = setTimeout(
          () =>
            resolve({
              ok: false,
              error: "timeout",
              message: `the page did not render within ${this.timeoutMs / 1000} seconds`,
            }),
          this.timeoutMs,
        );
      });
      const rendered = (async (): Promise<RenderResult> => {
        await cdp.send("Page.navigate", { url: served.url }, sessionId);
        // Loaded, then quiet: no request paused or answered for idleMs.
        while (!(state.loaded && state.inflight === 0 && Date.now() - state.last >= this.idleMs)) {
          if (overLimit) return overLimit;
          await Bun.sleep(50);
        }
        if (overLimit) return overLimit;
        const { result } = await cdp.send<{ result: { value?: unknown } }>(
          "Runtime.evaluate",
          { expression: "document.documentElement.outerHTML", returnByValue: true },
          sessionId,
        );
        const html = typeof result.value === "string" ? result.value : "";
        if (html.length > this.maxBytes)
          return {
            ok: false,
            error: "too_large",
            message: `the rendered page is larger than ${this.maxBytes} bytes`,
          };
        return { ok: true, html: `<!doctype html>${html}`, requests: state.requests, refused: state.refused };
      })();
      return await Promise.race([rendered, deadline]);
    } finally {
      clearTimeout(timer);
      for (const u of unsubscribe) u();
      await cdp.send("Target.disposeBrowserContext", { browserContextId }).catch(() => {});
    }
  }

  /** Answers one intercepted request through the fetcher, or refuses it. */
  private async answer(
    p: Record<string, unknown>,
    served: Served,
    state: { requests: number; refused: number; bytes: number },
    send: (method: string, params: object) => Promise<unknown>,
    over: (r: RenderResult) => void,
  ): Promise<void> {
    const requestId = p.requestId as string;
    const req = p.request as {
      url: string;
      method: string;
      headers?: Record<string, string>;
      postData?: string;
    };
    const refuse = (reason = "BlockedByClient") => {
      state.refused++;
      return send("Fetch.failRequest", { requestId, errorReason: reason });
    };
    if (NOT_LOADED.has(String(p.resourceType)))
      return void (await send("Fetch.failRequest", { requestId, errorReason: "BlockedByClient" }));
    if (!/^https?:/i.test(req.url) || !["GET", "HEAD", "POST"].includes(req.method))
      return void (await refuse());
    if (++state.requests > this.maxRequests) {
      over({
        ok: false,
        error: "too_large",
        message: `the page made more than ${this.maxRequests} requests`,
      });
      return void (await refuse());
    }
    const fulfill = (status: number, contentType: string, headers: Record<string, string>, text: string) =>
      send("Fetch.fulfillRequest", {
        requestId,
        responseCode: status,
        responseHeaders: [
          ...Object.entries(headers)
            .filter(([k]) => !DROPPED_HEADERS.has(k.toLowerCase()))
            .map(([name, value]) => ({ name, value })),
          { name: "content-type", value: `${contentType || "text/plain"}; charset=utf-8` },
        ],
        body: base64(text),
      });
    if (req.url === served.url && req.method === "GET")
      return void (await fulfill(200, served.contentType, {}, served.text));
    const headers: Record<string, string> = {};
    for (const [k, v] of Object.entries(req.headers ?? {}))
      if (["accept", "content-type", "x-requested-with"].includes(k.toLowerCase()))
        headers[k.toLowerCase()] = v;
    const r = await this.opts.fetcher.fetch({
      url: req.url,
      method: req.method === "POST" ? "POST" : "GET",
      headers,
      ...(req.method === "POST" ? { body: req.postData ?? "" } : {}),
      robots: true,
    });
    if (!r.ok) return void (await refuse(r.error === "timeout" ? "TimedOut" : "AccessDenied"));
    state.bytes += r.bytes;
    if (state.bytes > this.maxBytes) {
      over({ ok: false, error: "too_large", message: `the page loaded more than ${this.maxBytes} bytes` });
      return void (await refuse());
    }
    if (!isTextual(r.contentType)) return void (await refuse());
    await fulfill(r.status, r.contentType, r.headers, r.text);
  }
}

/** Reads Chromium's "DevTools listening on ws://…" line from its stderr. */
async function devtoolsUrl(proc: Subprocess<"ignore", "ignore", "pipe">, timeoutMs: number): Promise<string> {
  const reader = proc.stderr.getReader();
  const decoder = new TextDecoder();
  let seen = "";
  const timer = setTimeout(() => proc.kill("SIGKILL"), timeoutMs);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the browser exited before it listened (${seen.trim().slice(-300)})`);
      seen += decoder.decode(value, { stream: true });
      const m = /DevTools listening on (ws:\/\/\S+)/.exec(seen);
      if (m) {
        // Keep draining stderr so the browser never blocks on a full pipe.
        (async () => {
          for (;;) if ((await reader.read()).done) return;
        })().catch(() => {});
        return m[1];
      }
    }
  } finally {
    clearTimeout(timer);
  }
}
