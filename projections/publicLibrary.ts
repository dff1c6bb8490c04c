// The public library: published public briefs and guides (no org), with the guides' full-text index.
import type { StoredEvent } from "../events/catalog.ts";
import type { Tx } from "../events/store.ts";
import type { PublicBriefRecord } from "../src/domain/workspaceTypes.ts";

/** The brief's words (lower-cased letters and digits, space-separated, with a leading and trailing space), so
 * the `query` of search_public_briefs matches at word starts: "price" finds "prices", "ai" does not find "raises". */
export function briefSearchText(companySlug: string, slug: string, r: PublicBriefRecord): string {
  const text = [
    r.company_name,
    companySlug,
    r.domain ?? "",
    slug,
    r.title,
    r.summary ?? "",
    ...r.findings.flatMap((f) => [f.text, f.category ?? ""]),
  ].join(" ");
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return ` ${words.join(" ")} `;
}

export async function projectPublicLibrary(e: StoredEvent, tx: Tx): Promise<void> {
  switch (e.type) {
    case "PublicBriefRecorded": {
      const { id, company_slug, slug, record: r } = e.data;
      await tx.execute({
        sql: `INSERT INTO public_briefs (id, company_slug, slug, company_name, company_name_lc, domain, published_at,
                search_text, state, review)
              VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
              ON CONFLICT (id) DO UPDATE SET company_slug = excluded.company_slug, slug = excluded.slug,
                company_name = excluded.company_name,
                company_name_lc = excluded.company_name_lc, domain = excluded.domain, published_at = excluded.published_at,
                search_text = excluded.search_text, state = excluded.state, review = excluded.review`,
        args: [
          id,
          company_slug,
          slug,
          r.company_name,
          r.company_name.toLowerCase(),
          r.domain ?? null,
          r.published_at,
          briefSearchText(company_slug, slug, r),
          JSON.stringify(r),
          e.data.held ? "pending" : "published",
        ],
      });
      break;
    }
    case "PublicBriefReviewed":
      await tx.execute({
        sql: "UPDATE public_briefs SET review = ? WHERE id = ?",
        args: [e.data.decision, e.data.id],
      });
      break;
    case "GuideRecorded": {
      const { id, slug, record: r } = e.data;
      await tx.execute({
        sql: `INSERT INTO guides (id, slug, title, published_at, state) VALUES (?, ?, ?, ?, ?)
              ON CONFLICT (id) DO UPDATE SET slug = excluded.slug, title = excluded.title,
                published_at = excluded.published_at, state = excluded.state`,
        args: [id, slug, r.title, r.published_at, JSON.stringify(r)],
      });
      await tx.execute({ sql: "DELETE FROM guides_fts WHERE rowid = ?", args: [id] });
      await tx.execute({
        sql: "INSERT INTO guides_fts (rowid, title, excerpt, body) VALUES (?, ?, ?, ?)",
        args: [id, r.title, r.excerpt ?? "", r.body_markdown],
      });
      break;
    }
  }
}
