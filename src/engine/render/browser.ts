// Pages that need a browser (RIVALS_BROWSER): one Chromium process, started on first use, a few pages at a
// time, each in its own browser context that is thrown away after. The browser has no network of its own
// (docs/security.md, "The browser in a cage"): its proxy is a local listener that refuses every connection
// (cage.ts), it resolves no name, sends no UDP for WebRTC, and is driven over a pipe, not a TCP port. Every
// request of a page, of its frames and of its dedicated workers is intercepted (the DevTools Fetch domain) and
// answered through the fetcher — its address guard, robots.txt, per-host pacing and rewrite table — or refused;
// images, fonts and media are never loaded, a POST to another site is refused, popups are closed. A render has
// a time limit, a request budget (in all and per host), a byte limit and a memory limit; a page that crashes
// fails its render; a browser that dies is started again for the next page. Rendering runs inside the cycle
// and research, never in an API request.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable, Writable } from "node:stream";
import { getDomain } from "tldts";
import { type Fetcher, isTextual } from "../fetch/index.ts";
import { type Cage, startCage } from "./cage.ts";
import { Cdp } from "./cdp.ts";
import { treeMemory } from "./memory.ts";

export type RenderResult =
  | { ok: true; html: string; requests: number; refused: number }
  | { ok: false; error: "browser" | "timeout" | "too_large" | "limit"; message: string };

/** What renders a page: the browser itself, or one workspace's use of it (index.ts, tenantRenderer). */
export interface PageRenderer {
  render(served: Served): Promise<RenderResult>;
}

export interface RendererOptions {
  /** A Chromium executable. */
  browser: string;
  /** Answers every request a page makes (the tenant's fetcher, with the renderer's per-host pacing). */
  fetcher: Fetcher;
  /** Pages rendered at once. Default 2. */
  concurrency?: number;
  /** For one page, from navigation to its DOM. Default 20 s. */
  timeoutMs?: number;
  /** Requests one page may make. Default 150. */
  maxRequests?: number;
  /** Requests one page may make to one host. Default 40. */
  maxRequestsPerHost?: number;
  /** Bytes of all responses of one page, and of its rendered HTML. Default 10 MB. */
  maxBytes?: number;
  /** Resident memory of the whole browser (every process) while it renders. Default 1 GiB. */
  maxMemoryBytes?: number;
  /** A page's JavaScript heap, in MB (V8's --max-old-space-size). Default 256. */
  heapMb?: number;
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
/** Profile folders are named with the pid of the process that started the browser, so one left by a process
 * that was killed outright (nothing of it ran) is removed by the next one. */
const PROFILE_PREFIX = "rivals-browser-";
const START_TIMEOUT_MS = 15_000;

/** The command line of a caged browser: `proxy` is the cage's address. */
export function chromiumFlags(proxy: string, heapMb: number): string[] {
  return [
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
    // DevTools over fds 3 and 4: no TCP port, and the browser exits when this process does.
    "--remote-debugging-pipe",
    // Every connection through the cage, loopback too; no name resolved by the browser itself. The rule
    // would map the proxy's own address too (the browser then reaches nothing, not even the cage): excluded.
    `--proxy-server=${proxy}`,
    "--proxy-bypass-list=<-loopback>",
    `--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE ${new URL(proxy).hostname}`,
    // WebRTC may use UDP only through a proxy, and an HTTP proxy carries none.
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--block-new-web-contents",
    "--disable-features=Prerender2,SpeculationRulesPrefetchProxy,NetworkPrediction",
    `--js-flags=--max-old-space-size=${heapMb}`,
  ];
}

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

interface RenderState {
  requests: number;
  refused: number;
  bytes: number;
  inflight: number;
  last: number;
  loaded: boolean;
  perHost: Map<string, number>;
  site: string;
  over?: RenderResult;
  /** The render has ended: a frame or worker attached after it is not intercepted (its context goes). */
  ended: boolean;
}

/** The site of a host name (its registrable domain), the unit a POST may not cross. */
const siteOf = (host: string) => getDomain(host, { allowPrivateDomains: true }) ?? host.toLowerCase();

const isAlive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
};

/** Removes the profile folders of browsers whose process is gone. */
function sweepProfiles(dir: string): void {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const m = new RegExp(`^${PROFILE_PREFIX}(\\d+)-`).exec(name);
    if (!m || isAlive(Number(m[1]))) continue;
    const path = join(dir, name);
    try {
      if (statSync(path).uid === process.getuid?.()) rmSync(path, { recursive: true, force: true });
    } catch {}
  }
}

export class Renderer implements PageRenderer {
  private cdp?: Promise<Cdp>;
  private proc?: ChildProcess;
  private cage?: Cage;
  private profile?: string;
  private slots: Slots;
  /** The page each open browser context was made for: any other page in it is a popup. */
  private contexts = new Map<string, Promise<string>>();
  private readonly timeoutMs: number;
  private readonly maxRequests: number;
  private readonly maxPerHost: number;
  private readonly maxBytes: number;
  private readonly maxMemory: number;
  private readonly heapMb: number;
  private readonly idleMs: number;
  /** Browser processes started so far (a restart after a crash is the second). */
  launches = 0;
  /** Connections the browser tried to open on its own (all refused by its proxy). */
  get escapes(): number {
    return this.cage?.refused ?? 0;
  }
  /** Popups closed. */
  popups = 0;

  constructor(private opts: RendererOptions) {
    this.slots = new Slots(opts.concurrency ?? 2);
    this.timeoutMs = opts.timeoutMs ?? 20_000;
    this.maxRequests = opts.maxRequests ?? 150;
    this.maxPerHost = opts.maxRequestsPerHost ?? 40;
    this.maxBytes = opts.maxBytes ?? 10 * 1024 * 1024;
    this.maxMemory = opts.maxMemoryBytes ?? 1024 * 1024 * 1024;
    this.heapMb = opts.heapMb ?? 256;
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

  /** Stops the browser this renderer started and removes its profile folder, at once. */
  async close(): Promise<void> {
    this.kill();
  }

  /** Kills the browser this renderer started and removes its profile folder, synchronously (a signal handler
   * or the process's exit, where nothing awaited runs). */
  kill(): void {
    const cdp = this.cdp;
    this.cdp = undefined;
    cdp?.then((c) => c.close()).catch(() => {});
    this.stopProcess();
    this.cage?.stop();
    this.cage = undefined;
  }

  /** The process's pid, while this renderer runs one. */
  get pid(): number | undefined {
    return this.proc && this.proc.exitCode === null && this.proc.signalCode === null
      ? this.proc.pid
      : undefined;
  }

  /** The profile folder of the running browser. */
  get profileDir(): string | undefined {
    return this.profile;
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
    if (/^wss?:\/\//i.test(this.opts.browser))
      throw new Error(
        "RIVALS_BROWSER must be a Chromium executable: a browser reached at a DevTools address has a network of its own",
      );
    this.cage ??= await startCage();
    sweepProfiles(tmpdir());
    this.profile = mkdtempSync(join(tmpdir(), `${PROFILE_PREFIX}${process.pid}-`));
    const proc = spawn(
      this.opts.browser,
      [...chromiumFlags(this.cage.proxy, this.heapMb), `--user-data-dir=${this.profile}`, "about:blank"],
      { stdio: ["ignore", "ignore", "pipe", "pipe", "pipe"] },
    );
    this.proc = proc;
    // Pages are work for later: the server's requests come first.
    if (proc.pid)
      try {
        setPriority(proc.pid, 10);
      } catch {}
    let stderr = "";
    proc.stderr?.on("data", (d: Buffer) => {
      stderr = (stderr + d.toString("utf8")).slice(-2000);
    });
    const started = new Promise<never>((_, reject) => {
      proc.once("error", (e) => reject(new Error(`the browser did not start: ${e.message}`)));
      proc.once("exit", () =>
        reject(new Error(`the browser exited at start (${stderr.trim().slice(-300)})`)),
      );
    });
    const cdp = new Cdp(proc.stdio[3] as Writable, proc.stdio[4] as Readable);
    proc.once("exit", () => cdp.close());
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(`the browser did not answer within ${START_TIMEOUT_MS / 1000} seconds of its start`),
          ),
        START_TIMEOUT_MS,
      );
    });
    try {
      await Promise.race([cdp.send("Browser.getVersion"), started, late]);
    } finally {
      clearTimeout(timer);
    }
    // Pages a page opens (window.open, target=_blank) are closed as they appear.
    cdp.on("Target.targetCreated", undefined, (p) => {
      const t = p.targetInfo as { targetId: string; type: string; browserContextId?: string };
      const mine = t.browserContextId ? this.contexts.get(t.browserContextId) : undefined;
      if (t.type !== "page" || !mine) return;
      mine.then((own) => {
        if (own === t.targetId) return;
        this.popups++;
        cdp.send("Target.closeTarget", { targetId: t.targetId }).catch(() => {});
      });
    });
    await cdp.send("Target.setDiscoverTargets", { discover: true });
    return cdp;
  }

  private stopProcess(): void {
    const proc = this.proc;
    if (proc && proc.exitCode === null && proc.signalCode === null) proc.kill("SIGKILL");
    this.proc = undefined;
    if (this.profile) rmSync(this.profile, { recursive: true, force: true });
    this.profile = undefined;
  }

  private async renderWith(cdp: Cdp, served: Served): Promise<RenderResult> {
    const { browserContextId } = await cdp.send<{ browserContextId: string }>("Target.createBrowserContext", {
      disposeOnDetach: true,
    });
    let ownPage!: (id: string) => void;
    this.contexts.set(
      browserContextId,
      new Promise<string>((resolve) => {
        ownPage = resolve;
      }),
    );
    const unsubscribe: (() => void)[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    const state: RenderState = {
      requests: 0,
      refused: 0,
      bytes: 0,
      inflight: 0,
      last: Date.now(),
      loaded: false,
      perHost: new Map(),
      site: siteOf(new URL(served.url).hostname),
      ended: false,
    };
    try {
      // The time limit holds from here: a page's setup, its navigation and its settling.
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
        const { targetId } = await cdp.send<{ targetId: string }>("Target.createTarget", {
          url: "about:blank",
          browserContextId,
        });
        ownPage(targetId);
        const { sessionId } = await cdp.send<{ sessionId: string }>("Target.attachToTarget", {
          targetId,
          flatten: true,
        });
        if (state.ended) return { ok: false, error: "timeout", message: "the render ended" };
        unsubscribe.push(
          cdp.on("Page.loadEventFired", sessionId, () => {
            state.loaded = true;
          }),
          cdp.on("Inspector.targetCrashed", sessionId, () => {
            state.over ??= {
              ok: false,
              error: "browser",
              message: "the page crashed (out of memory, or a fault of the browser)",
            };
          }),
        );
        await this.intercept(cdp, sessionId, served, state, unsubscribe);
        await cdp.send("Inspector.enable", {}, sessionId);
        await cdp.send("Page.enable", {}, sessionId);
        await cdp.send("Page.navigate", { url: served.url }, sessionId);
        // Loaded, then quiet: no request paused or answered for idleMs.
        let checked = 0;
        while (!(state.loaded && state.inflight === 0 && Date.now() - state.last >= this.idleMs)) {
          if (state.over) return state.over;
          if (state.ended) return { ok: false, error: "timeout", message: "the render ended" };
          if (Date.now() - checked >= 100) {
            checked = Date.now();
            const used = this.pid ? treeMemory(this.pid) : undefined;
            if (used !== undefined && used > this.maxMemory)
              return {
                ok: false,
                error: "too_large",
                message: `the page took the browser over ${Math.round(this.maxMemory / 1048576)} MB of memory`,
              };
          }
          await Bun.sleep(25);
        }
        if (state.over) return state.over;
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
      // A setup step that fails after the time limit has nobody left to tell.
      rendered.catch(() => {});
      return await Promise.race([rendered, deadline]);
    } finally {
      clearTimeout(timer);
      state.ended = true;
      for (const u of unsubscribe) u();
      this.contexts.delete(browserContextId);
      await cdp.send("Target.disposeBrowserContext", { browserContextId }).catch(() => {});
    }
  }

  /** Answers the requests of a session (the page, and each frame and worker it starts: they are attached
   * paused, so none sends a request before it is intercepted). */
  private async intercept(
    cdp: Cdp,
    sessionId: string,
    served: Served,
    state: RenderState,
    unsubscribe: (() => void)[],
  ): Promise<void> {
    const send = (method: string, params: object) => cdp.send(method, params, sessionId).catch(() => ({}));
    unsubscribe.push(
      cdp.on("Fetch.requestPaused", sessionId, (p) => {
        state.inflight++;
        state.last = Date.now();
        this.answer(p, served, state, send).finally(() => {
          state.inflight--;
          state.last = Date.now();
        });
      }),
      cdp.on("Target.attachedToTarget", sessionId, (p) => {
        const child = p.sessionId as string;
        const type = (p.targetInfo as { type?: string })?.type;
        if (state.ended) return;
        void (async () => {
          if (type === "iframe" || type === "worker")
            await this.intercept(cdp, child, served, state, unsubscribe).catch(() => {});
          await cdp.send("Runtime.runIfWaitingForDebugger", {}, child).catch(() => {});
        })();
      }),
    );
    await cdp.send("Fetch.enable", { patterns: [{ urlPattern: "*", requestStage: "Request" }] }, sessionId);
    await cdp
      .send(
        "Target.setAutoAttach",
        { autoAttach: true, waitForDebuggerOnStart: true, flatten: true },
        sessionId,
      )
      .catch(() => {});
  }

  /** Answers one intercepted request through the fetcher, or refuses it. */
  private async answer(
    p: Record<string, unknown>,
    served: Served,
    state: RenderState,
    send: (method: string, params: object) => Promise<unknown>,
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
    let host: string;
    try {
      host = new URL(req.url).hostname.toLowerCase();
    } catch {
      return void (await refuse());
    }
    // A page may send its own forms and API calls; it may not make the renderer post to someone else.
    if (req.method === "POST" && siteOf(host) !== state.site) return void (await refuse());
    if (++state.requests > this.maxRequests) {
      state.over ??= {
        ok: false,
        error: "too_large",
        message: `the page made more than ${this.maxRequests} requests`,
      };
      return void (await refuse());
    }
    const toHost = (state.perHost.get(host) ?? 0) + 1;
    state.perHost.set(host, toHost);
    if (toHost > this.maxPerHost) return void (await refuse());
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
        body: Buffer.from(text, "utf8").toString("base64"),
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
      state.over ??= {
        ok: false,
        error: "too_large",
        message: `the page loaded more than ${this.maxBytes} bytes`,
      };
      return void (await refuse());
    }
    if (!isTextual(r.contentType)) return void (await refuse());
    await fulfill(r.status, r.contentType, r.headers, r.text);
  }
}

/** Headers of the fetcher's answer that do not describe the body the browser is given (decoded, re-encoded),
 * or that would let a site keep something in the browser beyond the render. */
const DROPPED_HEADERS = new Set([
  "content-encoding",
  "content-length",
  "transfer-encoding",
  "content-type",
  "service-worker-allowed",
  "alt-svc",
]);
