// A page's signature: a hash of exactly what its snapshot is computed from, taken from the tokenizer's events
// (htmlparser2, extract/litedom.ts observeParse) before any tree is built; the tree extraction reads (parse5's,
// extract/standardTree.ts) is built from the same tags, attributes and text. Two bodies with the same
// signature (and final URL) give the same snapshot, so a monitoring cycle can skip extraction, normalisation
// and comparison of a page whose bytes changed only where nothing is read: nonces and tokens in attributes, script bodies (build ids,
// `__NEXT_DATA__`), stylesheets, comments, cache-busted image and script URLs, CSRF meta tags.
//
// What is left out, and why the snapshot cannot depend on it:
// - the text of <script> elements other than JSON-LD, and of <style>: extraction drops both before reading
//   text (JSON-LD is kept whole); their attributes except a script's `type` (the `scripts` and `feeds` of an
//   extract are not in the snapshot);
// - comments' text (comments are not kept in the document; their place is kept);
// - attributes extraction never reads (NOISE_ATTRIBUTES, and data-* other than DATA_ATTRIBUTES_READ);
//   test/engine/compare/signature.test.ts checks that every attribute extraction reads is kept;
// - <link> attributes other than `rel`, and a canonical link's `href`; <meta> content other than the
//   snapshot's meta keys (normalise.ts META_KEYS), og:type and microdata (`itemprop`).
// A page that may be an article (og:type or a JSON-LD type naming one) is read by Readability, which reads
// any attribute and meta: for those, everything but script and style bodies and comments' text counts.
// Text outside scripts and styles always counts, noise in it included: a changed date in the text takes the
// full path (extraction, then a snapshot hash equal to the last one).
import type { ParseObserver } from "../extract/litedom.ts";
import { PRICE_DATA_ATTRS } from "../extract/pricing.ts";
import { META_KEYS } from "./normalise.ts";

/** Bump when extraction or normalisation reads something new, or the tokens are read differently, so stored
 * signatures stop matching. */
const VERSION = "4";

const NOISE_ATTRIBUTES = new Set([
  "nonce",
  "integrity",
  "src",
  "srcset",
  "sizes",
  "value",
  "crossorigin",
  "referrerpolicy",
  "loading",
  "decoding",
  "fetchpriority",
]);

/** The data-* attributes extraction reads (billing toggles and tab panels of pricing pages). */
export const DATA_ATTRIBUTES_READ = new Set([
  "data-period",
  "data-billing",
  "data-tab",
  "data-frequency",
  "data-interval",
  "data-cycle",
  "data-term",
  "data-billing-period",
  "data-show",
  "data-filter",
  "data-category",
  ...PRICE_DATA_ATTRS,
]);

const SIGNATURE_META = new Set([...META_KEYS, "og:type"]);
const ARTICLE_HINT = /article|posting|report/i;
const SPACES = /\s+/;

/** True when extraction never reads the attribute (outside article pages). */
export function isNoiseAttribute(name: string): boolean {
  return NOISE_ATTRIBUTES.has(name) || (name.startsWith("data-") && !DATA_ATTRIBUTES_READ.has(name));
}

/** Collects the signature while the page is parsed: pass it to parseDocument, then call `digest()`. */
export class PageSignature implements ParseObserver {
  /** What every snapshot depends on. */
  private kept: string;
  /** What only a possible article's snapshot depends on (Readability reads it). */
  private extra = "";
  private article = false;
  /** Inside <script> (not JSON-LD) or <style>: text not kept. */
  private dropText = false;
  private inJsonLd = false;

  constructor(url: string) {
    this.kept = `${VERSION}\u0000${url}\u0000`;
  }

  onopentag(name: string, attributes: Record<string, string>): void {
    let out = `<${name}`;
    let extra = "";
    if (name === "script" || name === "style") {
      const type = name === "script" ? (attributes.type ?? "") : "";
      if (Object.hasOwn(attributes, "type")) out += ` type=${type.length}:${type}`;
      this.inJsonLd = type.toLowerCase().trim() === "application/ld+json";
      this.dropText = !this.inJsonLd;
    } else if (name === "link") {
      const rel = attributes.rel ?? "";
      const canonical = rel.toLowerCase().split(SPACES).includes("canonical");
      for (const k in attributes) {
        const v = attributes[k]!;
        const a = ` ${k}=${v.length}:${v}`;
        if (k === "rel" || (canonical && k === "href")) out += a;
        else extra += a;
      }
    } else if (name === "meta") {
      const key = (attributes.property || attributes.name || attributes.itemprop || "").trim().toLowerCase();
      if (key === "og:type" && ARTICLE_HINT.test(attributes.content ?? "")) this.article = true;
      for (const k in attributes) {
        const v = attributes[k]!;
        const a = ` ${k}=${v.length}:${v}`;
        // microdata (`itemprop` offers) is read from a <meta>'s content too
        if (k !== "content" || SIGNATURE_META.has(key) || Object.hasOwn(attributes, "itemprop")) out += a;
        else extra += a;
      }
    } else {
      for (const k in attributes) {
        const v = attributes[k]!;
        const a = ` ${k}=${v.length}:${v}`;
        if (isNoiseAttribute(k)) extra += a;
        else out += a;
      }
    }
    this.kept += `${out}>`;
    if (extra) this.extra += `${this.kept.length}${extra}\u0000`;
  }

  ontext(text: string): void {
    if (this.dropText) return;
    if (this.inJsonLd && ARTICLE_HINT.test(text)) this.article = true;
    this.kept += `${text.length}:${text}`;
  }

  onclosetag(name: string): void {
    this.kept += `</${name}>`;
    this.dropText = false;
    this.inJsonLd = false;
  }

  oncomment(): void {
    this.kept += "<!>";
  }

  /** The signature (hex): of what is kept, plus what only Readability reads when the page may be an article. */
  digest(): string {
    const h = new Bun.CryptoHasher("sha256").update(this.kept);
    if (this.article) h.update(`\u0000article\u0000${this.extra}`);
    return h.digest("hex").slice(0, 32);
  }
}
