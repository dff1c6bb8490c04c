import { and, desc, eq, type SQL, sql } from "drizzle-orm";
import type { Db } from "../client.ts";
import { digests } from "../schema.ts";
import { appLinks, withUrl } from "./links.ts";

type Obj = Record<string, unknown>;
const listed = sql`${digests.listed} = 1`;

/** Generated digests, newest coverage period first. The list leaves out `items` and `markdown`
 * (docs/decisions.md). */
export async function listDigests(
  db: Db,
  orgId: number,
  f: { type?: string; limit: number; offset: number },
  base: string,
): Promise<Obj[]> {
  const where: SQL[] = [eq(digests.orgId, orgId), listed];
  // An empty type filters nothing, as an empty q does (a form that submits a blank field).
  if (f.type !== undefined && f.type !== "") where.push(eq(digests.type, f.type));
  const rows = await db
    .select({ id: digests.id, slug: digests.slug, doc: digests.listDoc })
    .from(digests)
    .where(and(...where))
    .orderBy(desc(digests.periodSort), desc(digests.id))
    .limit(f.limit)
    .offset(f.offset);
  return rows.map((r) => withUrl(r.doc, appLinks.digest(base, r.slug ?? r.id)));
}

/** Looked up as a slug first, then as a numeric id. */
export async function getDigest(
  db: Db,
  orgId: number,
  slugOrId: string,
  base: string,
): Promise<Obj | undefined> {
  const pick = (cond: SQL) =>
    db
      .select({ id: digests.id, slug: digests.slug, doc: digests.doc })
      .from(digests)
      .where(and(eq(digests.orgId, orgId), cond, listed))
      .limit(1);
  let [row] = await pick(eq(digests.slug, slugOrId));
  if (!row && /^\d{1,15}$/.test(slugOrId)) [row] = await pick(eq(digests.id, Number(slugOrId)));
  return row ? resolveAppLinks(withUrl(row.doc, appLinks.digest(base, row.slug ?? row.id)), base) : undefined;
}

const relative = (u: unknown) => typeof u === "string" && u.startsWith("/") && !u.startsWith("//");

/** The engine writes a digest's app links relative to the installation (`/app/signals/12`), whichever process
 * writes it (the server, the CLI): they become absolute here, with the base URL of the process that serves them. */
function resolveAppLinks(d: Obj, base: string): Obj {
  const abs = (u: unknown) => (relative(u) ? `${base}${u}` : u);
  if (Array.isArray(d.items))
    d.items = d.items.map((it: Obj) =>
      it && typeof it === "object"
        ? {
            ...it,
            ...(it.url !== undefined ? { url: abs(it.url) } : {}),
            ...(Array.isArray(it.signals)
              ? {
                  signals: it.signals.map((x: Obj) =>
                    x && typeof x === "object" && x.url !== undefined ? { ...x, url: abs(x.url) } : x,
                  ),
                }
              : {}),
          }
        : it,
    );
  if (typeof d.markdown === "string") d.markdown = d.markdown.replace(/\]\((\/app\/)/g, `](${base}$1`);
  return d;
}

/** The newest generated digest, optionally of one type. */
export async function newestDigest(db: Db, orgId: number, type: string | undefined, base: string) {
  const [first] = await listDigests(db, orgId, { type, limit: 1, offset: 0 }, base);
  return first ? getDigest(db, orgId, String(first.id), base) : undefined;
}

/** Generated digests written on or after a time, newest first (digests_written index). */
export async function digestsWrittenSince(db: Db, orgId: number, since: string, limit: number, base: string) {
  const rows = await db
    .select({ id: digests.id, slug: digests.slug, doc: digests.listDoc })
    .from(digests)
    .where(and(eq(digests.orgId, orgId), listed, sql`${digests.generatedAt} >= ${since}`))
    .orderBy(desc(digests.generatedAt), desc(digests.id))
    .limit(limit);
  return rows.map((r) => withUrl(r.doc, appLinks.digest(base, r.slug ?? r.id)));
}
