// The competitor's logo as its site shows it: the icon its home page links (the largest kind first:
// apple-touch-icon, then icon), else /favicon.ico, read through the one fetcher and kept only when its bytes
// are the image format they claim. An SVG is kept only when it is UTF-8 static drawing by an XML parse
// against an allow-list (svg.ts); every icon is served back with a sandboxing policy (web/competitorIcon.ts).
import { putCompetitorIcon } from "../../db/queries/icons.ts";
import type { Fetcher } from "../fetch/index.ts";
import { isHarmlessSvg } from "./svg.ts";

export interface SiteIcon {
  url: string;
  contentType: string;
  data: Uint8Array;
}

/** Largest icon kept (bytes). */
export const ICON_MAX_BYTES = 100_000;

const LINK = /<link\b[^>]*>/gi;
const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i")
    .exec(tag)
    ?.slice(1)
    .find((v) => v !== undefined);

/** The icon URLs a page's head names, best first. */
export function iconCandidates(html: string, pageUrl: string): string[] {
  const head = html.slice(0, Math.max(0, html.search(/<body[\s>]/i)) || 200_000);
  const found: { url: string; rank: number }[] = [];
  for (const tag of head.match(LINK) ?? []) {
    const rel = (attr(tag, "rel") ?? "").toLowerCase().split(/\s+/);
    const href = attr(tag, "href");
    if (!href) continue;
    const rank = rel.includes("apple-touch-icon") ? 0 : rel.includes("icon") ? 1 : -1;
    if (rank < 0) continue;
    try {
      const u = new URL(href, pageUrl);
      if (u.protocol === "http:" || u.protocol === "https:") found.push({ url: u.href, rank });
    } catch {}
  }
  const urls = found.sort((a, b) => a.rank - b.rank).map((f) => f.url);
  urls.push(new URL("/favicon.ico", pageUrl).href);
  return [...new Set(urls)].slice(0, 4);
}

const starts = (d: Uint8Array, bytes: number[], at = 0) => bytes.every((b, i) => d[at + i] === b);

/** Whether the bytes are the image the content type says (and, for SVG, a harmless one). */
export function isIconImage(contentType: string, d: Uint8Array): boolean {
  switch (contentType) {
    case "image/png":
      return starts(d, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    case "image/jpeg":
      return starts(d, [0xff, 0xd8, 0xff]);
    case "image/gif":
      return starts(d, [0x47, 0x49, 0x46, 0x38]);
    case "image/webp":
      return starts(d, [0x52, 0x49, 0x46, 0x46]) && starts(d, [0x57, 0x45, 0x42, 0x50], 8);
    case "image/x-icon":
    case "image/vnd.microsoft.icon":
      return starts(d, [0, 0, 1, 0]) || starts(d, [0x89, 0x50, 0x4e, 0x47]);
    case "image/svg+xml":
      return isHarmlessSvg(d);
    default:
      return false;
  }
}

/** The first usable icon of the page, or undefined. Never throws. */
export async function readIcon(
  fetcher: Fetcher,
  html: string,
  pageUrl: string,
): Promise<SiteIcon | undefined> {
  for (const url of iconCandidates(html, pageUrl)) {
    const r = await fetcher.fetch({ url, image: true, maxBytes: ICON_MAX_BYTES });
    if (r.ok && r.data && isIconImage(r.contentType, r.data))
      return {
        url: r.finalUrl,
        contentType: r.contentType === "image/vnd.microsoft.icon" ? "image/x-icon" : r.contentType,
        data: r.data,
      };
  }
  return undefined;
}

/** Keeps a competitor's icon (one per competitor, replaced by the next research that finds one). */
export async function storeIcon(
  s: Pick<import("../../services.ts").Services, "store">,
  orgId: number,
  competitorId: number,
  icon: SiteIcon,
  at: Date,
): Promise<void> {
  await s.store.writeTables(({ tx }) =>
    putCompetitorIcon(
      tx,
      orgId,
      competitorId,
      { contentType: icon.contentType, data: icon.data, sourceUrl: icon.url },
      at.toISOString(),
    ),
  );
}
