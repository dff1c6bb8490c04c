// The read API's rate limit is per client address, taken from the socket once as each request starts
// (http/address.ts: the client-address plugin looks it up through the app's server and keeps it on the request). Two loopback source
// addresses against a real server: one running out of its budget does not touch the other's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { request } from "node:http";
import { startTestServer, type TestServer } from "../support/helpers.ts";

let t: TestServer;
let key: string;

beforeAll(async () => {
  t = await startTestServer({ RIVALS_RATE_LIMIT: "2" });
  await t.org("acme");
  key = await t.key("acme");
});
afterAll(() => t.close());

/** GET from a given local (source) address: the status and the RateLimit-Remaining header. */
function getFrom(localAddress: string, path: string): Promise<[number, string | undefined]> {
  const url = new URL(t.base + path);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        localAddress,
        headers: { authorization: `Bearer ${key}` },
      },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve([res.statusCode ?? 0, res.headers["ratelimit-remaining"] as string | undefined]),
        );
      },
    );
    r.on("error", reject);
    r.end();
  });
}

test("each source address has its own budget", async () => {
  const a = [];
  for (let i = 0; i < 3; i++) a.push(await getFrom("127.0.0.2", "/api/v1/competitors"));
  expect(a).toEqual([
    [200, "1"],
    [200, "0"],
    [429, "0"],
  ]);
  // another address: untouched by the first one's requests
  expect(await getFrom("127.0.0.3", "/api/v1/competitors")).toEqual([200, "1"]);
});
