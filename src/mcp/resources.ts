// The workspace's records as MCP resources an agent or a person attaches to a conversation: a competitor's
// dossier, its battlecard and the digests, each as Markdown and as JSON (the objects the tools return). They are
// read with the same credential and scope as the read tools (the endpoint asks for `read`), from the same
// queries, and quote competitors' sites marked as such.
import type { Resource, ResourceTemplate } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { getBattlecard, listBattlecards } from "../db/queries/battlecards.ts";
import { getCompetitor, listCompetitors } from "../db/queries/competitors.ts";
import { getDigest, listDigests } from "../db/queries/digests.ts";
import { notesPage } from "../db/queries/engagement.ts";
import { formatDay } from "../domain/dates.ts";
import { mdEscape, mdUrl } from "../domain/markdown.ts";
import { battlecardMarkdown } from "../web/battlecardExtras.tsx";
import type { AuthedContext } from "./tool.ts";
import { UNTRUSTED_NOTE, untrustedContent } from "./untrusted.ts";

type Obj = Record<string, unknown>;
const MD = "text/markdown";
const JSON_TYPE = "application/json";

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: "rivals://competitors/{competitor_id}/dossier.md",
    name: "dossier",
    title: "Competitor dossier (Markdown)",
    description:
      "What a tracked competitor's sources state now: company facts, positioning, pricing, hiring.",
    mimeType: MD,
  },
  {
    uriTemplate: "rivals://competitors/{competitor_id}/dossier.json",
    name: "dossier_json",
    title: "Competitor dossier (JSON)",
    description: "The dossier as get_competitor returns it.",
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: "rivals://competitors/{competitor_id}/battlecard.md",
    name: "battlecard",
    title: "Battlecard (Markdown)",
    description: "A competitor's battlecard: talk tracks, landmines, the team's notes and the sources.",
    mimeType: MD,
  },
  {
    uriTemplate: "rivals://competitors/{competitor_id}/battlecard.json",
    name: "battlecard_json",
    title: "Battlecard (JSON)",
    description: "The battlecard as get_battlecard returns it.",
    mimeType: JSON_TYPE,
  },
  {
    uriTemplate: "rivals://digests/{digest}.md",
    name: "digest",
    title: "Digest (Markdown)",
    description: "A digest by slug or id (latest for the newest).",
    mimeType: MD,
  },
  {
    uriTemplate: "rivals://digests/{digest}.json",
    name: "digest_json",
    title: "Digest (JSON)",
    description: "The digest as get_digest returns it.",
    mimeType: JSON_TYPE,
  },
];

/** How many resources one page of resources/list names. */
const PAGE = 100;
/** The digests resources/list names (the newest); older ones are read by slug or id. */
const DIGESTS_LISTED = 20;

/** The concrete resources of the workspace: each competitor's dossier and battlecard, the newest digests. */
export async function listResources(
  ctx: AuthedContext,
  cursor: string | undefined,
): Promise<{ resources: Resource[]; nextCursor?: string }> {
  const { s, principal, base } = ctx;
  const db = s.database.db;
  const [competitors, cards, digests] = await Promise.all([
    listCompetitors(db, principal.orgId, base),
    listBattlecards(db, principal.orgId, base),
    listDigests(db, principal.orgId, { limit: DIGESTS_LISTED, offset: 0 }, base),
  ]);
  const all: Resource[] = [
    ...digests.map((d) => ({
      uri: `rivals://digests/${d.slug ?? d.id}.md`,
      name: String(d.slug ?? d.id),
      title: String(d.title ?? d.slug ?? `Digest ${d.id}`),
      mimeType: MD,
    })),
    ...competitors.map((c) => ({
      uri: `rivals://competitors/${c.id}/dossier.md`,
      name: `dossier-${c.id}`,
      title: `${c.name}: dossier`,
      mimeType: MD,
    })),
    ...cards.map((b) => ({
      uri: `rivals://competitors/${b.competitor_id}/battlecard.md`,
      name: `battlecard-${b.competitor_id}`,
      title: `${b.competitor_name ?? `Competitor ${b.competitor_id}`}: battlecard`,
      mimeType: MD,
    })),
  ];
  const offset = cursor && /^\d{1,9}$/.test(cursor) ? Number(cursor) : 0;
  const resources = all.slice(offset, offset + PAGE);
  return offset + PAGE < all.length ? { resources, nextCursor: String(offset + PAGE) } : { resources };
}

const notFound = (uri: string, what: string) =>
  new McpError(
    -32002,
    `Resource not found: ${uri} (${what}). resources/list names the workspace's resources.`,
  );

/** One resource's contents, Markdown or JSON by the URI's ending. */
export async function readResource(ctx: AuthedContext, uri: string) {
  const { s, principal, base } = ctx;
  const db = s.database.db;
  const m =
    /^rivals:\/\/competitors\/(\d{1,15})\/(dossier|battlecard)\.(md|json)$/.exec(uri) ??
    /^rivals:\/\/(digests)\/([^/]{1,200})\.(md|json)$/.exec(uri);
  if (!m)
    throw new McpError(ErrorCode.InvalidParams, `Unknown resource URI ${uri}: see resources/templates/list.`);
  const format = m[3] as "md" | "json";
  let record: Obj | undefined;
  let field: string;
  let markdown: () => Promise<string>;
  if (m[1] === "digests") {
    const key = decodeURIComponent(m[2]!);
    record =
      key === "latest"
        ? (await listDigests(db, principal.orgId, { limit: 1, offset: 0 }, base))[0]
        : await getDigest(db, principal.orgId, key, base);
    if (record && key === "latest") record = await getDigest(db, principal.orgId, String(record.id), base);
    if (!record) throw notFound(uri, "no digest with that slug or id in this workspace");
    field = "digest";
    const d = record;
    markdown = async () =>
      typeof d.markdown === "string" ? d.markdown : `# ${mdEscape(String(d.title ?? "Digest"))}\n`;
  } else if (m[2] === "dossier") {
    record = await getCompetitor(db, principal.orgId, Number(m[1]), base);
    if (!record) throw notFound(uri, "no tracked competitor with that id in this workspace");
    field = "competitor";
    const c = record;
    markdown = async () => dossierMarkdown(c, base);
  } else {
    record = await getBattlecard(db, principal.orgId, Number(m[1]), base, "competitor");
    if (!record)
      throw notFound(uri, "that competitor has no battlecard yet (generate_battlecard writes one)");
    field = "battlecard";
    const b = record;
    markdown = async () => {
      const notes = await notesPage(s.database, principal.orgId, "battlecard", Number(m[1]), undefined);
      return battlecardMarkdown(b, [...notes.notes].reverse(), base);
    };
  }
  const marking = untrustedContent([field], { [field]: record }, base);
  if (format === "json")
    return {
      contents: [
        {
          uri,
          mimeType: JSON_TYPE,
          text: JSON.stringify(
            marking ? { untrusted_content: marking, [field]: record } : { [field]: record },
          ),
        },
      ],
    };
  const text = await markdown();
  return {
    contents: [{ uri, mimeType: MD, text: marking ? `> ${UNTRUSTED_NOTE}\n\n${text}` : text }],
  };
}

const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** A value of the dossier as one line of Markdown (objects as `key: value` pairs). */
function inline(v: unknown): string {
  if (typeof v === "string") return mdEscape(v);
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  if (Array.isArray(v)) return v.map(inline).filter(Boolean).join("; ");
  if (isObj(v))
    return Object.entries(v)
      .filter(([, x]) => x !== undefined && x !== null && x !== "")
      .map(([k, x]) => `${k.replaceAll("_", " ")}: ${inline(x)}`)
      .join(", ");
  return "";
}

/** The dossier as Markdown: only what it states (absent fields stay absent), every value escaped. */
export function dossierMarkdown(c: Obj, base: string): string {
  const out = [`# ${mdEscape(String(c.name))}`, ""];
  const site = typeof c.website_url === "string" ? c.website_url : undefined;
  if (site && /^https?:\/\//.test(site)) out.push(`Website: <${mdUrl(site)}>`, "");
  if (typeof c.description === "string") out.push(mdEscape(c.description), "");
  const facts = [
    "category",
    "industry",
    "business_model",
    "target_customer",
    "company_size",
    "founding_year",
    "headquarters",
    "ownership",
    "watch",
  ]
    .filter((k) => c[k] !== undefined && c[k] !== null && c[k] !== "")
    .map((k) => `- ${k.replaceAll("_", " ")}: ${inline(c[k])}`);
  if (facts.length) out.push("## Company", "", ...facts, "");
  const reads = isObj(c.reads) ? c.reads : {};
  for (const [k, v] of Object.entries(reads)) {
    if (v === undefined || v === null) continue;
    out.push(`## ${k.replaceAll("_", " ").replace(/^./, (x) => x.toUpperCase())}`, "");
    if (k === "pricing" && isObj(v) && Array.isArray(v.plans)) {
      for (const p of v.plans.filter(isObj)) out.push(`- ${inline(p)}`);
      out.push("");
    } else if (isObj(v)) {
      for (const [kk, x] of Object.entries(v))
        if (inline(x)) out.push(`- ${kk.replaceAll("_", " ")}: ${inline(x)}`);
      out.push("");
    } else out.push(inline(v), "");
  }
  const fresh = isObj(c.freshness) ? c.freshness : {};
  if (typeof fresh.state_updated_at === "string")
    out.push(`Updated ${formatDay(fresh.state_updated_at)}.`, "");
  const links = isObj(c.links) ? c.links : {};
  out.push(`Source: ${typeof links.url === "string" ? links.url : `${base}/app/competitors/${c.id}`}`);
  return `${out.join("\n")}\n`;
}
