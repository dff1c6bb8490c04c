// Extraction step: a page's readable text — an article's through Readability, any other page's from its
// blocks.
import { Readability } from "@mozilla/readability";
import { parseFullDocument } from "./dom.ts";
import type { Block } from "./types.ts";

/** Readable text of the blocks: one line per heading, text run, list item, table row (cells joined with
 *  " | ") and card (title, then its lines); a blank line before each heading. The same reading
 *  html-to-text gives (no wrapping, no uppercasing), without parsing the page a second time. */
export function blocksText(blocks: Block[]): string {
  const out: string[] = [];
  for (const b of blocks) {
    if (b.kind === "heading") {
      if (out.length) out.push("");
      out.push(b.text);
    } else if (b.kind === "text") out.push(b.text);
    else if (b.kind === "list") out.push(...b.items);
    else if (b.kind === "table") for (const r of b.rows) out.push(r.filter((c) => c).join(" | "));
    else out.push(b.title, ...b.items);
  }
  return out.join("\n").trim();
}

export function isArticle(meta: Record<string, string>, jsonLd: Record<string, unknown>[]): boolean {
  if (meta["og:type"] === "article") return true;
  return jsonLd.some((o) => {
    const t = o["@type"];
    const types = Array.isArray(t) ? t : [t];
    return types.some(
      (x) => typeof x === "string" && /^(Article|BlogPosting|NewsArticle|TechArticle|Report)$/.test(x),
    );
  });
}

export function readableText(html: string): string | null {
  try {
    const doc = parseFullDocument(html);
    const art = new Readability(doc, { charThreshold: 200 }).parse();
    const t = art?.textContent;
    return t
      ? t
          .replace(/[ \t\u00A0]+/g, " ")
          .replace(/\s*\n\s*/g, "\n")
          .trim()
      : null;
  } catch {
    return null;
  }
}
