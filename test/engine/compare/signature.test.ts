// Page signatures (src/engine/compare/signature.ts): bytes that differ only where extraction reads nothing give
// the same signature — and then, always, the same snapshot; anything extraction reads changes it. A page is
// signed once its bytes changed without its snapshot; then the cycle's snapshot task stops after the signature's
// tokenizer pass when the signature is the last one.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { htmlFiles } from "../../../fixtures/web/files.ts";
import { loadConfig } from "../../../src/config.ts";
import { normalise, serialise, snapshotHash } from "../../../src/engine/compare/normalise.ts";
import { isNoiseAttribute, PageSignature } from "../../../src/engine/compare/signature.ts";
import { observeDocument } from "../../../src/engine/extract/dom.ts";
import { LElement } from "../../../src/engine/extract/litedom.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";
import type { SnapshotTaskResult } from "../../../src/engine/workers/extract.ts";
import { snapshotPool } from "../../../src/engine/workers/extract.ts";

const web = join(import.meta.dir, "..", "..", "..", "fixtures", "web", "sites");
const pages = htmlFiles(web).map((p) => {
  const rel = relative(web, p).split("/");
  const path = rel
    .slice(2)
    .join("/")
    .replace(/(^|\/)index\.html$/, "")
    .replace(/\.html$/, "");
  return { url: `https://${rel[0]}/${path}`, html: readFileSync(p, "utf8") };
});

const signature = (html: string, url: string) => {
  const sig = new PageSignature(url);
  observeDocument(html, sig);
  return sig.digest();
};
const snapshot = (html: string, url: string) => snapshotHash(serialise(normalise(extractPage(html, url))));

/** Changes only where extraction reads nothing: what real pages change on every request. */
function noise(html: string, n: number): string {
  return html
    .replace(/<head([^>]*)>/i, `<head$1><meta name="csrf-token" content="tok-${n}x9Q"><!-- built ${n} -->`)
    .replace(
      /<\/body>/i,
      `<script nonce="n${n}">window.__BUILD = "${n}"; if (a < b) {}</script>` +
        `<script id="__NEXT_DATA__" type="application/json">{"buildId":"b${n}"}</script>` +
        `<style>.c${n}{color:red}</style><input type="hidden" name="csrf" value="v${n}"></body>`,
    )
    .replace(
      /<img\b/gi,
      `<img data-reactid="${n}" srcset="/a.png?v=${n} 1x, /b.png?v=${n} 2x" src="/i.png?v=${n}"`,
    )
    .replace(/<link\b(?![^>]*canonical)/gi, `<link integrity="sha-${n}"`);
}

describe("page signatures", () => {
  test("noise only: the same signature, and the same snapshot, on every fixture page but articles", () => {
    expect(pages.length).toBeGreaterThan(100);
    let same = 0;
    for (const p of pages) {
      const a = noise(p.html, 1);
      const b = noise(p.html, 2);
      expect(a).not.toBe(b);
      expect(snapshot(a, p.url)).toBe(snapshot(b, p.url));
      if (signature(a, p.url) === signature(b, p.url)) same++;
      // an article is read by Readability, which reads any attribute: its signature keeps them all
      else expect(/og:type" content="article"|"@type":\s*"(BlogPosting|\w*Article)"/.test(p.html)).toBe(true);
    }
    expect(same).toBeGreaterThan(pages.length * 0.8);
  });

  test("what extraction reads changes the signature: text, classes, links, JSON-LD, snapshot meta, the URL", () => {
    const page = pages.find((p) => p.url === "https://globex.example/pricing")!;
    const base = signature(page.html, page.url);
    const variants = [
      page.html.replace("$59", "$69"),
      page.html.replace(/class="/, 'class="x '),
      page.html.replace('href="/product"', 'href="/products"'),
      page.html.replace(/<\/head>/i, '<meta name="description" content="other"></head>'),
      page.html.replace(/<\/head>/i, '<script type="application/ld+json">{"@type":"Thing"}</script></head>'),
      page.html.replace(/<\/main>/i, "<!-- c --></main>"),
      page.html.replace(/<\/main>/i, '<div data-billing="annual"></div></main>'),
    ];
    for (const v of variants) {
      expect(v).not.toBe(page.html);
      expect(signature(v, page.url)).not.toBe(base);
    }
    expect(signature(page.html, `${page.url}/other`)).not.toBe(base);
  });

  test("a possible article (read by Readability) keeps every attribute and meta", () => {
    const html = (n: number) =>
      `<html><head><meta property="og:type" content="article"><meta name="csrf-token" content="t${n}"></head><body><article><p>Text</p><img src="/a${n}.png"></article></body></html>`;
    expect(signature(html(1), "https://a.example/blog/x")).not.toBe(
      signature(html(2), "https://a.example/blog/x"),
    );
    const plain = (n: number) =>
      `<html><head><meta name="csrf-token" content="t${n}"></head><body><main><p>Text</p><img src="/a${n}.png"></main></body></html>`;
    expect(signature(plain(1), "https://a.example/x")).toBe(signature(plain(2), "https://a.example/x"));
  });

  test("every attribute extraction reads is in the signature (a script's src feeds no snapshot)", () => {
    const read = new Set<string>();
    const proto = LElement.prototype;
    const { getAttribute, hasAttribute } = proto;
    proto.getAttribute = function (this: LElement, name: string) {
      read.add(`${this.tagName} ${name}`);
      return getAttribute.call(this, name);
    };
    proto.hasAttribute = function (this: LElement, name: string) {
      read.add(`${this.tagName} ${name}`);
      return hasAttribute.call(this, name);
    };
    try {
      for (const p of pages) extractPage(p.html, p.url);
    } finally {
      proto.getAttribute = getAttribute;
      proto.hasAttribute = hasAttribute;
    }
    expect(read.has("SCRIPT src")).toBe(true);
    expect([...read].some((r) => r.endsWith(" data-billing"))).toBe(true);
    const dropped = [...read].filter((r) => {
      const [tag, name] = r.split(" ") as [string, string];
      return isNoiseAttribute(name) && !(tag === "SCRIPT" && name === "src");
    });
    expect(dropped).toEqual([]);
  });

  test("a page is signed once its bytes changed without its snapshot; then its task stops after the signature", async () => {
    const page = pages.find((p) => p.url === "https://globex.example/pricing")!;
    const task = { snapshot: true as const, url: page.url, sourceUrl: page.url };
    const pool = snapshotPool(loadConfig({}));
    const first = (await pool.run({ ...task, html: noise(page.html, 1), first: true })) as SnapshotTaskResult;
    if (!("first" in first)) throw new Error("a first snapshot");
    // nothing yet says this page's bytes move without its content: no signature pass
    expect(first.signature).toBeUndefined();
    expect(first.hash).toBe(snapshot(page.html, page.url));
    // new bytes, the same snapshot: now it is signed
    const moved = await pool.run({ ...task, html: noise(page.html, 2), latestHash: first.hash });
    if (!("same" in moved) || !moved.signature) throw new Error("the page was not signed");
    expect(moved.signature).toMatch(/^[0-9a-f]{32}$/);
    const again = await pool.run({
      ...task,
      html: noise(page.html, 3),
      latestHash: first.hash,
      signature: moved.signature,
    });
    expect(again).toEqual({ same: true, signature: moved.signature });
    const changed = await pool.run({
      ...task,
      html: noise(page.html, 2).replace("$59", "$69"),
      latestHash: first.hash,
      signature: moved.signature,
    });
    if (!("first" in changed)) throw new Error("a price change was skipped");
    expect(changed.hash).not.toBe(first.hash);
    // a signed page stays signed
    expect(changed.signature).toMatch(/^[0-9a-f]{32}$/);
    expect(changed.signature).not.toBe(moved.signature);
    // an unsigned page whose content changed is not signed
    const unsigned = await pool.run({
      ...task,
      html: noise(page.html, 2).replace("$59", "$69"),
      latestHash: first.hash,
    });
    if (!("first" in unsigned)) throw new Error("a price change was skipped");
    expect(unsigned.hash).toBe(changed.hash);
    expect(unsigned.signature).toBeUndefined();
  });
});
