// Page reads of the public library that the tools do not need (the shared searches are in publicLibrary.ts).
import type { Client } from "@libsql/client";
import type { GuideRecord } from "../../domain/workspaceTypes.ts";
import { publicLinks } from "./publicLibrary.ts";

type Exec = Pick<Client, "execute">;

/** One guide with its body, by slug. */
export async function getGuide(c: Exec, slug: string, base: string) {
  const r = await c.execute({ sql: "SELECT slug, state FROM guides WHERE slug = ?", args: [slug] });
  const row = r.rows[0];
  if (!row) return undefined;
  const g = JSON.parse(String(row.state)) as GuideRecord;
  return { slug: String(row.slug), ...g, url: publicLinks.guide(base, String(row.slug)) };
}

/** A company's public briefs, newest first (public_briefs_by_company index). */
export async function listCompanyBriefs(c: Exec, companySlug: string, limit: number) {
  const r = await c.execute({
    sql: `SELECT slug, state FROM public_briefs WHERE company_slug = ? AND review = 'published'
          ORDER BY published_at DESC, id DESC LIMIT ?`,
    args: [companySlug, limit],
  });
  return r.rows.map((row) => {
    const b = JSON.parse(String(row.state)) as {
      company_name: string;
      domain?: string;
      title: string;
      summary?: string;
      published_at: string;
      findings: unknown[];
    };
    return {
      slug: String(row.slug),
      company_name: b.company_name,
      domain: b.domain,
      title: b.title,
      summary: b.summary,
      published_at: b.published_at,
      finding_count: b.findings.length,
    };
  });
}
