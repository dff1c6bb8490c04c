// The compression hook on its own: which coding a request gets (q-values, refusals), JSON compressed from a
// kilobyte up, and a server-sent event stream passed through as a stream — its first event arrives while the
// stream is still open, unencoded.
import { expect, test } from "bun:test";
import { gunzipSync } from "node:zlib";
import { Elysia } from "elysia";
import { chooseEncoding, compression } from "../../src/http/compression.ts";

test("br before gzip; q=0 refuses a coding; * counts; nothing accepted is none", () => {
  expect(chooseEncoding("gzip, deflate, br")).toBe("br");
  expect(chooseEncoding("gzip")).toBe("gzip");
  expect(chooseEncoding("br;q=0, gzip;q=0.5")).toBe("gzip");
  expect(chooseEncoding("*")).toBe("br");
  expect(chooseEncoding("*;q=0")).toBeUndefined();
  expect(chooseEncoding("identity")).toBeUndefined();
  expect(chooseEncoding(null)).toBeUndefined();
});

function app() {
  let push: (s: string) => void = () => {};
  let close: () => void = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      push = (s) => c.enqueue(new TextEncoder().encode(s));
      close = () => c.close();
    },
  });
  const big = { data: Array.from({ length: 200 }, (_, i) => ({ id: i, title: `Signal ${i}` })) };
  const a = new Elysia()
    .use(compression())
    .get("/big", () => new Response(JSON.stringify(big), { headers: { "content-type": "application/json" } }))
    .get("/small", () => new Response('{"data":[]}', { headers: { "content-type": "application/json" } }))
    .get("/events", () => new Response(stream, { headers: { "content-type": "text/event-stream" } }));
  return { a, big, push: (s: string) => push(s), close: () => close() };
}

const get = (a: { handle: (r: Request) => Promise<Response> }, path: string, encoding = "gzip") =>
  a.handle(new Request(`http://localhost${path}`, { headers: { "accept-encoding": encoding } }));

test("JSON of a kilobyte and more is compressed; less goes as it is", async () => {
  const { a, big } = app();
  const r = await get(a, "/big");
  expect(r.headers.get("content-encoding")).toBe("gzip");
  expect(r.headers.get("vary")).toBe("Accept-Encoding");
  expect(JSON.parse(gunzipSync(new Uint8Array(await r.arrayBuffer())).toString())).toEqual(big);
  const small = await get(a, "/small");
  expect(small.headers.get("content-encoding")).toBeNull();
  expect(await small.text()).toBe('{"data":[]}');
  const plain = await get(a, "/big", "identity");
  expect(plain.headers.get("content-encoding")).toBeNull();
  expect(JSON.parse(await plain.text())).toEqual(big);
});

test("a server-sent event stream passes untouched and unbuffered", async () => {
  const { a, push, close } = app();
  const r = await get(a, "/events", "gzip, br");
  expect(r.headers.get("content-encoding")).toBeNull();
  expect(r.headers.get("content-type")).toBe("text/event-stream");
  const reader = r.body!.getReader();
  push("data: one\n\n");
  const first = await reader.read();
  expect(new TextDecoder().decode(first.value)).toBe("data: one\n\n");
  push("data: two\n\n");
  close();
  const second = await reader.read();
  expect(new TextDecoder().decode(second.value)).toBe("data: two\n\n");
});
