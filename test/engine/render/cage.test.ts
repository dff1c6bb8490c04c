// The browser in a cage: hostile pages (fixtures/rendered/hostile.ts) try every route out of the renderer's
// browser to a canary on loopback — a TCP listener (HTTP, WebSocket, TURN over TCP) and a UDP socket (STUN,
// TURN over UDP) — that must receive nothing, with the test Chromium and, where it is installed, the system
// Chromium. The flood and the memory bombs are held to the render's budgets. docs/security.md lists each probe.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createSocket, type Socket as UdpSocket } from "node:dgram";
import { existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";
import {
  type HostileSite,
  PROBES,
  type Probe,
  startHostileSite,
} from "../../../fixtures/rendered/hostile.ts";
import { loadConfig } from "../../../src/config.ts";
import { systemResolver } from "../../../src/engine/fetch/guard.ts";
import { createFetcher, type Fetcher } from "../../../src/engine/fetch/index.ts";
import { startCage } from "../../../src/engine/render/cage.ts";
import { RENDER_HOST_DELAY_MS, Renderer } from "../../../src/engine/render/index.ts";
import { processTree, treeMemory } from "../../../src/engine/render/memory.ts";
import { chromiumPath } from "../../support/browser.ts";

setDefaultTimeout(60_000);

const SYSTEM_CHROMIUM = "/usr/bin/chromium";
const BROWSERS = [
  { name: "the test Chromium (@sparticuz/chromium)", path: await chromiumPath() },
  {
    name: `the system Chromium (${SYSTEM_CHROMIUM})`,
    path: existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : "",
  },
];

interface Hit {
  kind: "tcp" | "udp";
  data: string;
}
let tcp: Server;
let udp: UdpSocket;
const hits: Hit[] = [];
const canary = { tcp: 0, udp: 0 };

beforeAll(async () => {
  tcp = createServer((socket) => {
    hits.push({ kind: "tcp", data: "" });
    socket.on("data", (d) => {
      hits.push({ kind: "tcp", data: d.toString("latin1").slice(0, 200) });
    });
    socket.on("error", () => {});
    socket.end("HTTP/1.1 200 OK\r\ncontent-length: 6\r\n\r\nsecret");
  });
  await new Promise<void>((resolve) => tcp.listen(0, "127.0.0.1", resolve));
  canary.tcp = (tcp.address() as { port: number }).port;
  udp = createSocket("udp4");
  udp.on("message", (m) => hits.push({ kind: "udp", data: m.toString("hex").slice(0, 80) }));
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  canary.udp = udp.address().port;
});
afterAll(() => {
  tcp?.close();
  udp?.close();
});

test("RIVALS_BROWSER is an executable: a browser reached at a DevTools address (its own network) is refused", () => {
  expect(() => loadConfig({ RIVALS_BROWSER: "ws://127.0.0.1:9222/devtools/browser/x" })).toThrow(
    "RIVALS_BROWSER must be the path of a Chromium executable",
  );
  expect(loadConfig({ RIVALS_BROWSER: " /usr/bin/chromium " }).browser).toBe("/usr/bin/chromium");
});

test("the cage answers a tunnel and a proxied request with 403 and forwards nothing", async () => {
  const cage = await startCage();
  try {
    const port = Number(new URL(cage.proxy).port);
    const ask = (line: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, "127.0.0.1", () => socket.write(`${line}\r\nhost: x\r\n\r\n`));
        let got = "";
        socket.on("data", (d) => {
          got += d.toString("latin1");
        });
        socket.on("close", () => resolve(got));
      });
    expect(await ask(`CONNECT 127.0.0.1:${canary.tcp} HTTP/1.1`)).toStartWith("HTTP/1.1 403 Forbidden");
    expect(await ask(`GET http://127.0.0.1:${canary.tcp}/admin HTTP/1.1`)).toStartWith(
      "HTTP/1.1 403 Forbidden",
    );
    expect(cage.refused).toBe(2);
    expect(hits).toEqual([]);
  } finally {
    cage.stop();
  }
});

/** Inodes of the TCP sockets listening on this machine. */
function listeningInodes(): Set<string> {
  const out = new Set<string>();
  for (const f of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(f)) continue;
    for (const line of readFileSync(f, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols[3] === "0A") out.add(cols[9]);
    }
  }
  return out;
}

/** Listening TCP sockets held by the processes `pids`. */
function listeningSockets(pids: number[]): string[] {
  const listening = listeningInodes();
  const found: string[] = [];
  for (const pid of pids) {
    let fds: string[] = [];
    try {
      fds = readdirSync(`/proc/${pid}/fd`);
    } catch {}
    for (const fd of fds) {
      try {
        const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
        if (m && listening.has(m[1])) found.push(`${pid}:${fd}`);
      } catch {}
    }
  }
  return found;
}

for (const browser of BROWSERS)
  describe.skipIf(!browser.path)(
    browser.path ? browser.name : `${browser.name}: skipped, no system Chromium is installed here`,
    () => {
      let site: HostileSite;
      let fetcher: Fetcher;
      let renderer: Renderer;
      const MAX_MEMORY = 768 * 1024 * 1024;

      beforeAll(() => {
        site = startHostileSite(canary);
        fetcher = createFetcher({
          userAgent: "RivalsBot/1.0",
          delayMs: RENDER_HOST_DELAY_MS,
          rewrite: site.rewrite,
          // A name whose DNS answer is loopback, as a hostile site can publish.
          resolve: (host) =>
            host === "sneaky.example" || host.endsWith(".sneaky.example")
              ? Promise.resolve(["127.0.0.1"])
              : systemResolver(host),
          log: () => {},
        });
        renderer = new Renderer({
          browser: browser.path,
          fetcher,
          timeoutMs: 12_000,
          maxMemoryBytes: MAX_MEMORY,
        });
      });
      afterAll(async () => {
        await renderer.close();
        site.stop();
      });

      /** A probe's page over plain HTTP (no mixed-content rule stops an attempt first), except the service
       * worker's, which only a secure page may register. */
      async function render(probe: Probe, using = renderer) {
        const scheme = probe === "service-worker" ? "https" : "http";
        const served = await fetcher.fetch({ url: `${scheme}://hostile.example/${probe}` });
        site.paths.length = 0;
        if (!served.ok) throw new Error(served.message);
        const before = { escapes: using.escapes, popups: using.popups };
        const started = Date.now();
        const r = await using.render({
          url: served.finalUrl,
          text: served.text,
          contentType: served.contentType,
        });
        // What the browser started in the background has a moment to try after the render.
        await Bun.sleep(300);
        const measured = {
          probe,
          ok: r.ok,
          ...(r.ok ? { requests: r.requests, refused: r.refused } : { error: r.error, message: r.message }),
          ms: Date.now() - started,
          cage_refused: using.escapes - before.escapes,
          popups_closed: using.popups - before.popups,
          out: r.ok ? (/<p id="out">([^<]*)<\/p>/.exec(r.html)?.[1] ?? "") : "",
          site_paths: [...new Set(site.paths)].filter((p) => !p.startsWith("/hold")),
        };
        console.log(JSON.stringify({ browser: browser.name, ...measured }));
        return { r, measured };
      }

      test("DevTools is a pipe: no process of the browser listens on a TCP port", async () => {
        const { r } = await render("websocket");
        expect(r.ok).toBe(true);
        const pid = renderer.pid;
        expect(pid).toBeNumber();
        const tree = processTree(pid!);
        expect(tree.length).toBeGreaterThan(1);
        expect(listeningSockets(tree)).toEqual([]);
        expect(readdirSync(renderer.profileDir!)).not.toContain("DevToolsActivePort");
      });

      for (const probe of PROBES.filter((p) => !p.startsWith("memory") && p !== "flood"))
        test(`${probe}: the canary receives nothing`, async () => {
          hits.length = 0;
          const { r: result, measured } = await render(probe);
          expect(hits).toEqual([]);
          if (probe === "websocket") expect(measured.cage_refused).toBeGreaterThan(0);
          if (probe === "service-worker") expect(measured.out).not.toBe("service worker registered");
          if (probe === "frames") expect(measured.site_paths).toContain("/frame");
          if (probe === "workers") expect(measured.site_paths).toContain("/from-worker");
          if (probe === "local-files") expect(JSON.stringify(result)).not.toContain("root:x:0");
          if (probe === "popup") expect(measured.site_paths).not.toContain("/popup-child");
        });

      test("flood: at most the per-host budget reaches a third party, paced, and no cross-site POST", async () => {
        hits.length = 0;
        site.tracker.length = 0;
        const { r } = await render("flood");
        expect(r).toMatchObject({ ok: false, error: "too_large" });
        expect(site.tracker.filter((h) => h.method === "POST")).toEqual([]);
        const gets = site.tracker.filter((h) => h.method === "GET");
        expect(gets.length).toBeGreaterThan(0);
        expect(gets.length).toBeLessThanOrEqual(40);
        const span = gets[gets.length - 1].at - gets[0].at;
        expect(span).toBeGreaterThanOrEqual((gets.length - 1) * RENDER_HOST_DELAY_MS * 0.8);
        expect(hits).toEqual([]);
      });

      for (const probe of ["memory-heap", "memory-buffers", "memory-crash"] as const)
        test(`${probe}: the render fails and the browser stays under its memory limit`, async () => {
          // The crash probe runs with a 64 MB heap, so its renderer reaches the limit within the time limit.
          const using =
            probe === "memory-crash"
              ? new Renderer({
                  browser: browser.path,
                  fetcher,
                  timeoutMs: 30_000,
                  heapMb: 64,
                  maxMemoryBytes: MAX_MEMORY,
                })
              : renderer;
          let peak = 0;
          const watch = setInterval(() => {
            const pid = using.pid;
            peak = Math.max(peak, pid ? (treeMemory(pid) ?? 0) : 0);
          }, 20);
          try {
            const { r } = await render(probe, using);
            expect(r.ok).toBe(false);
            if (probe === "memory-crash")
              expect(r).toMatchObject({ error: "browser", message: expect.stringContaining("crashed") });
            console.log(
              JSON.stringify({ browser: browser.name, probe, peak_mb: Math.round(peak / 1048576) }),
            );
            expect(peak).toBeLessThan(MAX_MEMORY + 256 * 1024 * 1024);
            expect(hits).toEqual([]);
            // The next page renders in the same browser, or a new one.
            expect((await render("dns", using)).r.ok).toBe(true);
          } finally {
            clearInterval(watch);
            if (using !== renderer) await using.close();
          }
        });
    },
  );
