// The text measures extraction decides with: they agree with the text they stand for, without building it.
import { describe, expect, test } from "bun:test";
import {
  clean,
  cleanLength,
  contentRoot,
  descendants,
  findFirst,
  hasText,
  parseDocument,
  textOf,
} from "../../../src/engine/extract/dom.ts";

const PAGES = [
  "<body><header>Acme</header><main><h1> Pricing </h1><p>Starter\u00a0 $9 <b>per</b>\n month</p></main><footer> © Acme </footer></body>",
  "<body><main>\u200b \u00ad </main><p>Outside only</p></body>",
  "<body><p>Before</p><main><ul><li>One</li><li> Two </li></ul></main></body>",
  "<body><main><section><h2>\u2003</h2><div><span>\ufeff</span></div></section></main>  </body>",
  "<body>   <main></main>   </body>",
];

describe("text measures", () => {
  test("cleanLength counts what clean(textContent) keeps, for an element and a descendant in one pass", () => {
    for (const html of PAGES) {
      const root = contentRoot(parseDocument(html));
      const main = findFirst(root, (e) => e.tagName === "MAIN")!;
      const [all, inner] = cleanLength(root, main);
      expect(all).toBe(clean(root.textContent).length);
      expect(inner).toBe(clean(main.textContent).length);
      expect(cleanLength(main)[0]).toBe(inner);
    }
  });

  test("hasText is whether textOf reads anything", () => {
    for (const html of PAGES) {
      const root = contentRoot(parseDocument(html));
      for (const el of [root, ...descendants(root)]) expect(hasText(el)).toBe(textOf(el) !== "");
    }
    expect(hasText(null)).toBe(false);
  });

  test("textOf is read again after any change below the element: a removed node, an inserted one, a clone", () => {
    const root = contentRoot(parseDocument(PAGES[0]!));
    const main = findFirst(root, (e) => e.tagName === "MAIN")!;
    const p = findFirst(main, (e) => e.tagName === "P")!;
    expect(textOf(main)).toBe("Pricing Starter $9 per month");
    findFirst(p, (e) => e.tagName === "B")!.remove();
    expect(textOf(main)).toBe("Pricing Starter $9 month");
    expect(textOf(p)).toBe("Starter $9 month");
    const copy = findFirst(root, (e) => e.tagName === "FOOTER")!.cloneNode(true);
    main.insertBefore(copy, p);
    expect(textOf(main)).toBe("Pricing © Acme Starter $9 month");
    expect(textOf(copy)).toBe("© Acme");
  });
});
