// A page whose bytes change on every request (a nonce) while what it says does not: the check that first finds
// it so finds it unchanged and signs it, and the next checks find it unchanged by that signature. A page whose
// bytes changed only with what it says is not signed.
import { expect, test } from "bun:test";
import { normalise, serialise, snapshotHash } from "../../../src/engine/compare/normalise.ts";
import { checkSource } from "../../../src/engine/cycle/check.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";
import type { SourceState } from "../../../src/engine/snapshots/store.ts";
import { AT, COMPETITOR, checkedSite, fetcherTo, pageState } from "../../support/source-state.ts";

const URL_ = "https://nonce.test/pricing";
const page = (nonce: number, price = "$29") =>
  `<!doctype html><html><head><title>Pricing</title><meta name="csrf-token" content="t${nonce}"></head>` +
  `<body><h1>Plans</h1><p>Team ${price} per month</p><script nonce="n${nonce}">window.b=${nonce}</script></body></html>`;
let served = 0;
let price = "$29";
const env = checkedSite((req) => {
  if (new URL(req.url).pathname === "/robots.txt") return new Response("", { status: 404 });
  return new Response(page(++served, price), { headers: { "content-type": "text/html" } });
});

const latestHash = snapshotHash(serialise(normalise(extractPage(page(0), URL_))));
const state = (bodyHash: string): SourceState => ({
  ...pageState(URL_, { etag: null, bodyHash, rendered: false }),
  latestHash,
});
const check = (st: SourceState) =>
  checkSource(
    env.s,
    1,
    COMPETITOR,
    AT,
    { url: URL_, kind: "pricing", monitored: false },
    st,
    fetcherTo("https://nonce.test", env.site.port),
  );

test("new bytes and the same snapshot sign the page; its next checks are unchanged by the signature", async () => {
  // stored before anything showed that its bytes move without its content: no signature
  const first = await check(state(Bun.hash(page(0)).toString(36)));
  if (first.status !== "unchanged" || !first.bodyHash) throw new Error(`unchanged, not ${first.status}`);
  const [bytes, signature] = first.bodyHash.split(".");
  expect(signature).toMatch(/^[0-9a-f]{32}$/);
  const next = await check(state(first.bodyHash));
  if (next.status !== "unchanged" || !next.bodyHash) throw new Error(`unchanged, not ${next.status}`);
  expect(next.bodyHash.split(".")).toEqual([expect.not.stringMatching(`^${bytes}$`), signature]);
});

test("an unsigned page whose bytes changed with its content is compared, and stays unsigned", async () => {
  price = "$39";
  const o = await check(state(Bun.hash(page(0)).toString(36)));
  price = "$29";
  if (o.status !== "changed" && o.status !== "baseline") throw new Error(`changed, not ${o.status}`);
  expect(o.bodyHash).not.toContain(".");
});
