// The fixture web (fixtures/web) behind a small override layer for the cycle tests: a test can change one
// page's body (a planted change), make it fail (503, 404) or hang, per host and path, and put it back.
import { resolveFixture } from "../../fixtures/web/server.ts";

export type Override = { status: number } | { transform: (body: string) => string } | { hang: true };

export interface CycleWeb {
  rewrite: string;
  set(host: string, path: string, o: Override): void;
  clear(host?: string, path?: string): void;
  requests: { host: string; path: string; status: number }[];
  stop(): Promise<void>;
}

export function startCycleWeb(version = 1): CycleWeb {
  const overrides = new Map<string, Override>();
  const requests: CycleWeb["requests"] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      const host = (req.headers.get("host") ?? url.host).replace(/:\d+$/, "");
      const path = url.pathname + url.search;
      const o = overrides.get(`${host}${url.pathname}`);
      if (o && "hang" in o) {
        await Bun.sleep(5_000);
        return new Response("late");
      }
      if (o && "status" in o) {
        requests.push({ host, path, status: o.status });
        return new Response("<!doctype html><title>Error</title>", {
          status: o.status,
          headers: { "content-type": "text/html" },
        });
      }
      const res = resolveFixture(host, path, version);
      let body = res.body;
      const headers = { ...res.headers };
      if (o && "transform" in o && body) {
        body = new TextEncoder().encode(o.transform(new TextDecoder().decode(body)));
        headers.etag = `"${Bun.hash(body).toString(16)}"`;
      }
      if (res.status === 200 && headers.etag && req.headers.get("if-none-match") === headers.etag) {
        requests.push({ host, path, status: 304 });
        return new Response(null, { status: 304, headers: { etag: headers.etag } });
      }
      requests.push({ host, path, status: res.status });
      return new Response(body, { status: res.status, headers });
    },
  });
  const origin = `http://127.0.0.1:${server.port}`;
  return {
    rewrite: `*=${origin}`,
    set: (host, path, o) => overrides.set(`${host}${path}`, o),
    clear: (host, path) => {
      if (host === undefined) overrides.clear();
      else overrides.delete(`${host}${path}`);
    },
    requests,
    stop: () => server.stop(true),
  };
}
