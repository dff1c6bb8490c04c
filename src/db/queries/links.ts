// App links the API objects carry (docs/decisions.md: app links).
export const appLinks = {
  competitor: (base: string, id: number) => `${base}/app/competitors/${id}`,
  signal: (base: string, id: number) => `${base}/app/signals/${id}`,
  digest: (base: string, slugOrId: string | number) =>
    `${base}/app/digests/${encodeURIComponent(String(slugOrId))}`,
  battlecard: (base: string, id: number) => `${base}/app/battlecards/${id}`,
};

type Obj = Record<string, unknown>;
export const withUrl = (doc: string, url: string): Obj => {
  const o = JSON.parse(doc) as Obj;
  o.url = url;
  return o;
};

/** A select of `id, doc` rows (in the list's order) turned into one row: the ids joined by commas and the
 * documents by U+001E. One row instead of one per document: libsql's driver costs about half a microsecond per
 * text value it hands over, so a 50-row page cost 77 µs as rows and 50 as one row (bench/cold-path.ts). The
 * documents are JSON.stringify's output, where U+001E only ever appears escaped. Both aggregates read the rows
 * in the one order the subquery yields them (its ORDER BY, which a LIMIT keeps from being flattened away);
 * test/api/read-signal-order.test.ts holds the order over pages of a few hundred rows, locally and on sqld. */
export const docListSql = (select: string): string =>
  `SELECT group_concat(id), group_concat(doc, char(30)) FROM (${select})`;

/** The JSON array text of `withUrl(doc, link(id))` for each row of a docListSql row, without parsing the
 * documents: they carry no `url` of their own, so `url` goes last, where setting it on the parsed object puts
 * it. The link's JSON text is quoted once, up to the id (`link(0)` ends in the id). */
export function docListJson(row: unknown[] | undefined, link: (id: number) => string): string {
  const [ids, docs] = row ?? [];
  if (typeof ids !== "string" || typeof docs !== "string") return "[]"; // no rows: the aggregates are NULL
  const head = JSON.stringify(link(0)).slice(0, -2);
  if (`${head}0"` !== JSON.stringify(link(0))) throw new Error("docListJson: the link must end with the id");
  const id = ids.split(",");
  const doc = docs.split("\x1e");
  if (id.length !== doc.length) throw new Error("docListJson: ids and documents differ in number");
  const out = new Array<string>(id.length);
  for (let i = 0; i < id.length; i++) {
    const d = doc[i];
    out[i] = d === "{}" ? `{"url":${head}${id[i]}"}` : `${d.slice(0, -1)},"url":${head}${id[i]}"}`;
  }
  return `[${out.join(",")}]`;
}
