// A page that ignores If-None-Match and sends the same bytes as last time is unchanged, whatever its encoding: a
// UTF-8 body is compared by its bytes (not decoded), a body with a byte-order mark or in another encoding by its
// text; like a 304 it is handed to no reader; a changed body is not taken for the same one.
import { expect, test } from "bun:test";
import { checkSource } from "../../../src/engine/cycle/check.ts";
import type { SourceState } from "../../../src/engine/snapshots/store.ts";
import { AT, COMPETITOR, checkedSite, fetcherTo, pageState } from "../../support/source-state.ts";

const HTML =
  "<!doctype html><html><head><title>Tarifs</title></head><body><p>Équipe 29 € — par mois</p></body></html>";
const PAGES: Record<string, { bytes: Uint8Array<ArrayBuffer>; type: string }> = {
  "/utf8": { bytes: new TextEncoder().encode(HTML), type: "text/html; charset=utf-8" },
  "/bom": {
    bytes: new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(HTML)]),
    type: "text/html; charset=utf-8",
  },
  // "Équipe … €" in windows-1252: É is 0xC9, € is 0x80, — is 0x97.
  "/latin": {
    bytes: Uint8Array.from(HTML, (ch) => ({ É: 0xc9, "€": 0x80, "—": 0x97 })[ch] ?? ch.charCodeAt(0)),
    type: "text/html; charset=windows-1252",
  },
};
const env = checkedSite((req) => {
  const page = PAGES[new URL(req.url).pathname];
  if (!page) return new Response("", { status: 404 });
  return new Response(page.bytes, { headers: { "content-type": page.type, etag: '"v2"' } });
});

const fetcher = () => fetcherTo("https://same.test", env.site.port);

/** The source as last checked: its text's hash, an ETag the site no longer honours. */
const state = (path: string, text: string): SourceState =>
  pageState(`https://same.test${path}`, {
    etag: '"v1"',
    bodyHash: `${Bun.hash(text).toString(36)}.sig`,
    rendered: false,
  });

for (const path of Object.keys(PAGES))
  test(`the same bytes again (${path.slice(1)}) are unchanged, with the answer's new validators`, async () => {
    let read = false;
    const o = await checkSource(
      env.s,
      1,
      COMPETITOR,
      AT,
      { url: `https://same.test${path}`, kind: "pricing", monitored: false },
      state(path, HTML),
      fetcher(),
      {
        onBody: () => {
          read = true;
        },
      },
    );
    expect(o.status).toBe("unchanged");
    if (o.status === "unchanged") expect(o.etag).toBe('"v2"');
    // Like a 304, it names nothing new (a careers page's boards are not read again).
    expect(read).toBe(false);
  });

test("a body that is not the one last seen is not taken for it, and its reader gets its text", async () => {
  let read: string | undefined;
  const o = await checkSource(
    env.s,
    1,
    COMPETITOR,
    AT,
    { url: "https://same.test/utf8", kind: "pricing", monitored: false },
    state("/utf8", HTML.replace("29", "39")),
    fetcher(),
    { onBody: (text) => (read = text()) },
  );
  expect(o.status).not.toBe("unchanged");
  expect(read).toBe(HTML);
});

test("the fetcher's answer decodes its text on first read; a copy with another text carries no bytes", async () => {
  const r = await fetcher().fetch({ url: "https://same.test/latin" });
  if (!r.ok) throw new Error(r.message);
  expect(r.raw?.encoding).toBe("windows-1252");
  expect(r.text).toBe(HTML);
  // Once decoded, the bytes are not kept beside the text.
  expect(r.raw).toBeUndefined();
  const again = await fetcher().fetch({ url: "https://same.test/utf8" });
  if (!again.ok) throw new Error(again.message);
  expect({ ...again, text: "other" }.raw).toBeUndefined();
});
