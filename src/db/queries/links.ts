// App links the API objects carry (DESIGN: app links).
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

/** The JSON text of `withUrl(doc, link(id))` for many rows, without parsing the documents: they are
 * JSON.stringify's output and carry no `url` of their own, so `url` goes last, where setting it on the parsed
 * object puts it. The link's JSON text is quoted once, up to the id (`link(0)` ends in the id). */
export function withUrlTexts(rows: [number, string][], link: (id: number) => string): string[] {
  const head = JSON.stringify(link(0)).slice(0, -2);
  if (`${head}0"` !== JSON.stringify(link(0))) throw new Error("withUrlTexts: the link must end with the id");
  return rows.map(([id, doc]) =>
    doc === "{}" ? `{"url":${head}${id}"}` : `${doc.slice(0, -1)},"url":${head}${id}"}`,
  );
}
