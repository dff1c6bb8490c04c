// What an operator reads to review held free briefs (src/domain/briefReview.ts decides).
import type { Client } from "@libsql/client";
import { streamVersionSql } from "../../../events/command.ts";

/** Briefs waiting for review, oldest first: what an operator reads before deciding. */
export async function heldBriefs(c: Pick<Client, "execute">, limit = 100) {
  const r = await c.execute({
    sql: `SELECT id, company_slug, slug, domain, published_at, state FROM public_briefs
          WHERE review = 'pending' ORDER BY id LIMIT ?`,
    args: [limit],
  });
  return r.rows.map((row) => {
    const rec = JSON.parse(String(row.state)) as {
      company_name: string;
      title: string;
      summary?: string;
      findings: { text: string }[];
      sources: { url: string }[];
    };
    return {
      id: Number(row.id),
      domain: row.domain === null ? undefined : String(row.domain),
      company_slug: String(row.company_slug),
      slug: String(row.slug),
      written_at: String(row.published_at),
      company_name: rec.company_name,
      title: rec.title,
      summary: rec.summary,
      findings: rec.findings.map((f) => f.text),
      sources: rec.sources.map((s) => s.url),
    };
  });
}

/** A free brief's review state by its id, as its review decides on it, with its stream's version. */
export async function briefReviewState(c: Pick<Client, "execute">, id: number) {
  const r = await c.execute({
    sql: `SELECT id, review, ${streamVersionSql("public_brief", "id")} AS version FROM public_briefs WHERE id = ?`,
    args: [id],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        review: String(row.review) as "pending" | "published" | "rejected",
        version: Number(row.version),
      }
    : undefined;
}
