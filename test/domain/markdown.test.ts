// The one Markdown escaper, for text and for link destinations: what a website wrote (a title, a URL) never
// closes a link, opens another, or becomes markup — as the app's renderer reads it and as CommonMark does.
import { expect, test } from "bun:test";
import { mdEscape, mdUrl } from "../../src/domain/markdown.ts";
import { renderMarkdown } from "../../src/web/markdown.ts";

const hrefs = (html: string) => [...html.matchAll(/href="([^"]*)"/g)].map((m) => m[1]);

test("a title shaped as a link stays text", () => {
  const md = `[${mdEscape("Head of Sales](https://phish.example/reset) [details")}](https://rivals.test/app/signals/1)`;
  expect(hrefs(renderMarkdown(md))).toEqual(["https://rivals.test/app/signals/1"]);
});

test("a URL that would close the link and open another stays one destination", () => {
  for (const url of [
    "https://boards.example/jobs/1)[Reset your password](https://phish.example/reset",
    "https://boards.example/jobs/1) [x](https://phish.example/",
    "https://boards.example/a b>c<d\\e`f\"g'h[i]j",
  ]) {
    const dest = mdUrl(url);
    expect(dest).not.toMatch(/[\s()<>[\]\\`"']/);
    expect(decodeURI(dest.replace(/%28/g, "(").replace(/%29/g, ")"))).toBe(url);
    const html = renderMarkdown(`- Signal ([source](${dest}))`);
    expect(hrefs(html)).toHaveLength(1);
    expect(hrefs(html)[0]).not.toContain('phish.example/reset"');
    expect(html).not.toContain('href="https://phish.example');
  }
});

test("an ordinary URL is unchanged", () => {
  expect(mdUrl("https://globex.example/pricing?plan=team#faq")).toBe(
    "https://globex.example/pricing?plan=team#faq",
  );
});
