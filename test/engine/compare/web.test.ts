// Extraction → normalisation → comparison on the fixture web's real pages: noise of every kind ENGINE.md lists,
// planted in the HTML, gives zero changes on every page of every site; a planted price change gives exactly
// one change whose excerpt holds the new value.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { parseHTML } from "linkedom";
import { htmlFiles } from "../../../fixtures/web/files.ts";
import { compare, normalise, seenOf } from "../../../src/engine/compare/index.ts";
import { extractPage } from "../../../src/engine/extract/page.ts";

const SITES = join(import.meta.dir, "..", "..", "..", "fixtures/web/sites");
const COMPANY_SITES = [
  "globex.example",
  "brightloop.example",
  "quantive.example",
  "northwind.example",
  "tallyhq.example",
];

const pages = COMPANY_SITES.flatMap((host) => {
  const root = join(SITES, host, "v1");
  return htmlFiles(root).map((file) => {
    const path = relative(root, file)
      .replace(/(index)?\.html$/, "")
      .replace(/\/$/, "");
    return { host, url: `https://${host}/${path}`, html: readFileSync(file, "utf8") };
  });
});

const hex = (seed: number) => ((seed * 2654435761) >>> 0).toString(16).padStart(8, "0");
const token = (seed: number) => `Zq${hex(seed)}Xr${hex(seed + 7)}Pk`;

/** The page with the noise of one moment: a build line with a relative time, a date, a hash and a counter;
 * a CSRF meta tag and hidden field; cache-busted asset URLs; srcset; a live counter; the copyright year. */
function withNoise(html: string, seed: number): string {
  const { document } = parseHTML(html);
  const doc = document as unknown as Document;
  const head = doc.querySelector("head");
  const meta = doc.createElement("meta");
  meta.setAttribute("name", "csrf-token");
  meta.setAttribute("content", token(seed));
  head?.appendChild(meta);
  for (const s of Array.from(doc.querySelectorAll("script[src], link[href]"))) {
    const attr = s.hasAttribute("src") ? "src" : "href";
    const v = s.getAttribute(attr) ?? "";
    if (/^https?:|^\//.test(v) && !/canonical|alternate/.test(s.getAttribute("rel") ?? ""))
      s.setAttribute(attr, `${v}${v.includes("?") ? "&" : "?"}v=${seed}`);
  }
  for (const img of Array.from(doc.querySelectorAll("img")))
    img.setAttribute("srcset", `/img/a-${hex(seed)}.webp 480w, /img/b-${hex(seed)}.webp 960w`);
  const host = doc.querySelector("footer") ?? doc.querySelector("main") ?? doc.body;
  const p = doc.createElement("p");
  p.textContent = `Last deployed ${seed + 2} hours ago · build ${hex(seed)} · ${seed + 10} November 2026 at 1${seed}:0${seed} UTC · ${(12_000 + seed * 37).toLocaleString("en-US")} happy customers`;
  host?.appendChild(p);
  const form = doc.createElement("form");
  form.innerHTML = `<input type="hidden" name="authenticity_token" value="${token(seed + 1)}"><button>Subscribe</button>`;
  host?.appendChild(form);
  let out = doc.toString();
  out = out.replace(/© ?20\d\d/g, `© ${2024 + seed}`);
  return out;
}

/** What only a re-render changes: lists and card grids in another order, a consent banner and a chat widget. */
function reshuffled(html: string): string {
  const { document } = parseHTML(html);
  const doc = document as unknown as Document;
  for (const list of Array.from(doc.querySelectorAll("ul, ol"))) {
    const items = Array.from(list.children);
    for (const li of items.reverse()) list.appendChild(li);
  }
  for (const parent of Array.from(doc.querySelectorAll("*"))) {
    const kids = Array.from(parent.children);
    if (kids.length >= 2 && kids.every((k) => /card/i.test(k.getAttribute("class") ?? "")))
      for (const k of kids.reverse()) parent.appendChild(k);
  }
  const banner = doc.createElement("div");
  banner.setAttribute("id", "onetrust-banner-sdk");
  banner.setAttribute("class", "cookie-banner");
  banner.innerHTML =
    "<p>We use cookies to improve your experience and for marketing. Read our cookie policy.</p><button>Accept all</button><button>Reject all</button><button>Manage preferences</button>";
  doc.body.appendChild(banner);
  const chat = doc.createElement("div");
  chat.setAttribute("class", "intercom-lightweight-app");
  chat.innerHTML = "<div class='intercom-launcher'><p>Hi there 👋 Chat with us</p></div>";
  doc.body.appendChild(chat);
  return doc.toString();
}

describe("noise on every fixture page gives zero changes", () => {
  test("the fixture web has pages to check", () => {
    expect(pages.length).toBeGreaterThan(30);
  });
  for (const page of pages) {
    test(page.url, () => {
      const a = normalise(extractPage(withNoise(page.html, 1), page.url));
      const b = normalise(extractPage(reshuffled(withNoise(page.html, 2)), page.url));
      expect(compare(a, b, seenOf([a]))).toEqual([]);
    });
  }
});

describe("planted changes on real pages", () => {
  const pricing = pages.find((p) => p.url === "https://globex.example/pricing")!;

  test("Team's price goes from $59 to $69 (card, meta description and JSON-LD): one change", () => {
    const raised = pricing.html.replaceAll("$59", "$69").replace('"price": "59.00"', '"price": "69.00"');
    const a = normalise(extractPage(withNoise(pricing.html, 1), pricing.url));
    const b = normalise(extractPage(withNoise(raised, 2), pricing.url));
    const changes = compare(a, b, seenOf([a]));
    expect(changes.map((c) => [c.kind, c.subject, c.before, c.after])).toEqual([
      ["plan_price_changed", "Team", "$59 per seat/month", "$69 per seat/month"],
    ]);
    expect(changes[0].excerpt).toContain("[+69]");
    expect(changes[0].url).toBe("https://globex.example/pricing");
  });

  test("a new sentence in the home page's hero sub-headline: one hero change with the new words", () => {
    const home = pages.find((p) => p.url === "https://globex.example/")!;
    const edited = home.html.replaceAll(
      "Funnels, retention and cohorts",
      "Funnels, retention, cohorts and session replay",
    );
    expect(edited).not.toBe(home.html);
    const a = normalise(extractPage(home.html, home.url));
    const b = normalise(extractPage(edited, home.url));
    const changes = compare(a, b, seenOf([a]));
    expect(changes.map((c) => c.kind)).toEqual(["hero_changed"]);
    expect(changes[0].excerpt).toContain("session replay");
  });
});
