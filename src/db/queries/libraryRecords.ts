// The public library's stored records as a new line of them is decided against: a brief by its slugs, a guide by
// its slug.
import type { Exec } from "../client.ts";

/** The stored public brief under these slugs, if any. */
export async function storedPublicBrief<R>(
  db: Exec,
  companySlug: string,
  slug: string,
): Promise<{ id: number; record: R } | undefined> {
  const r = await db.execute({
    sql: "SELECT id, state FROM public_briefs WHERE company_slug = ? AND slug = ?",
    args: [companySlug, slug],
  });
  const row = r.rows[0];
  return row ? { id: Number(row.id), record: JSON.parse(String(row.state)) as R } : undefined;
}

/** The stored guide under this slug, if any. */
export async function storedGuide<R>(db: Exec, slug: string): Promise<{ id: number; record: R } | undefined> {
  const r = await db.execute({ sql: "SELECT id, state FROM guides WHERE slug = ?", args: [slug] });
  const row = r.rows[0];
  return row ? { id: Number(row.id), record: JSON.parse(String(row.state)) as R } : undefined;
}
