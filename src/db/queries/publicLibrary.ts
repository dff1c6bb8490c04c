// Reads of the public library (public briefs, guides). Never scoped by org: nothing here belongs to a workspace.
import type { Client, InValue } from "@libsql/client";
import { normalizeDomain } from "../../domain/publicLibrary.ts";
import type { GuideRecord, PublicBriefRecord } from "../../domain/workspaceTypes.ts";

type Exec = Pick<Client, "execute">;

export const publicLinks = {
  brief: (base: string, company: string, slug: string) =>
    `${base}/briefs/${encodeURIComponent(company)}/${encodeURIComponent(slug)}`,
  guide: (base: string, slug: string) => `${base}/guides/${encodeURIComponent(slug)}`,
  freeBrief: (base: string) => `${base}/free-brief`,
  signup: (base: string) => `${base}/signup`,
  pricing: (base: string) => `${base}/pricing`,
};

/** The distinct lower-cased words of a query (letters and digits), at most `max`. */
export function queryWords(q: string, max = 12): string[] {
  const out: string[] = [];
  for (const m of q.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) if (!out.includes(m[0])) out.push(m[0]);
  return out.slice(0, max);
}

function companyOf(row: Record<string, unknown>, r: PublicBriefRecord) {
  return {
    slug: String(row.company_slug),
    name: r.company_name,
    ...(r.domain ? { domain: r.domain } : {}),
  };
}

function briefSummary(row: Record<string, unknown>, base: string) {
  const r = JSON.parse(String(row.state)) as PublicBriefRecord;
  return {
    company: companyOf(row, r),
    slug: String(row.slug),
    title: r.title,
    ...(r.summary ? { summary: r.summary } : {}),
    published_at: r.published_at,
    finding_count: r.findings.length,
    url: publicLinks.brief(base, String(row.company_slug), String(row.slug)),
  };
}

/** Public briefs, newest first: every word of `query` starts a word of the brief's text (company, title,
 * summary, findings), and `company` is its name (or part of it), slug or domain. */
export async function searchPublicBriefs(
  c: Exec,
  opts: { query?: string; company?: string; limit: number },
  base: string,
) {
  // Held briefs (RIVALS_FREE_BRIEF_REVIEW) are served once an operator publishes them.
  const where: string[] = ["review = 'published'"];
  const args: InValue[] = [];
  for (const w of queryWords(opts.query ?? "")) {
    where.push("instr(search_text, ?) > 0");
    args.push(` ${w}`);
  }
  const company = opts.company?.trim().toLowerCase();
  if (company) {
    const alts = ["company_slug = ?", "instr(company_name_lc, ?) > 0"];
    args.push(company, company);
    const domain = company.includes(".") ? normalizeDomain(company) : undefined;
    if (domain) {
      alts.push("domain = ?");
      args.push(domain);
    }
    where.push(`(${alts.join(" OR ")})`);
  }
  args.push(opts.limit);
  const r = await c.execute({
    sql: `SELECT company_slug, slug, state FROM public_briefs WHERE ${where.join(" AND ")}
          ORDER BY published_at DESC, id DESC LIMIT ?`,
    args,
  });
  return r.rows.map((row) => briefSummary(row, base));
}

/** One public brief by company slug and brief slug, or the company's newest when no brief slug is given. */
export async function getPublicBrief(c: Exec, companySlug: string, slug: string | undefined, base: string) {
  const r = await c.execute(
    slug === undefined
      ? {
          sql: `SELECT company_slug, slug, state FROM public_briefs WHERE company_slug = ? AND review = 'published'
                ORDER BY published_at DESC, id DESC LIMIT 1`,
          args: [companySlug],
        }
      : {
          sql: `SELECT company_slug, slug, state FROM public_briefs
                WHERE company_slug = ? AND slug = ? AND review = 'published'`,
          args: [companySlug, slug],
        },
  );
  const row = r.rows[0];
  if (!row) return undefined;
  const rec = JSON.parse(String(row.state)) as PublicBriefRecord;
  return {
    company: companyOf(row, rec),
    slug: String(row.slug),
    title: rec.title,
    ...(rec.summary ? { summary: rec.summary } : {}),
    published_at: rec.published_at,
    url: publicLinks.brief(base, String(row.company_slug), String(row.slug)),
    findings: rec.findings.map((f) => ({ ...f })),
    sources: rec.sources.map((s, i) => ({ number: i + 1, ...s })),
  };
}

function guideItem(row: Record<string, unknown>, base: string) {
  const r = JSON.parse(String(row.state)) as GuideRecord;
  return {
    slug: String(row.slug),
    title: r.title,
    ...(r.excerpt ? { excerpt: r.excerpt } : {}),
    published_at: r.published_at,
    url: publicLinks.guide(base, String(row.slug)),
  };
}

/** Guides, best match first (FTS5 bm25 over title, excerpt and body, title weighted most), or the newest
 * when no query is given. Any word may match; guides matching more and rarer words rank higher. */
export async function searchGuides(c: Exec, query: string | undefined, limit: number, base: string) {
  const words = query === undefined ? [] : queryWords(query);
  if (words.length === 0) {
    const r = await c.execute({
      sql: "SELECT slug, state FROM guides ORDER BY published_at DESC, id DESC LIMIT ?",
      args: [limit],
    });
    return r.rows.map((row) => guideItem(row, base));
  }
  const match = words.map((w) => `"${w.replaceAll('"', '""')}"`).join(" OR ");
  const r = await c.execute({
    sql: `SELECT g.slug, g.state FROM guides_fts f JOIN guides g ON g.id = f.rowid
          WHERE guides_fts MATCH ? ORDER BY bm25(guides_fts, 10.0, 4.0, 1.0), g.published_at DESC LIMIT ?`,
    args: [match, limit],
  });
  return r.rows.map((row) => guideItem(row, base));
}
