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

/** The JSON text of `withUrl(doc, url)` without parsing `doc`: the stored documents are JSON.stringify's
 * output and carry no `url` of their own, so `url` goes last, where setting it on the parsed object puts it. */
export const withUrlText = (doc: string, url: string): string =>
  doc === "{}" ? `{"url":${JSON.stringify(url)}}` : `${doc.slice(0, -1)},"url":${JSON.stringify(url)}}`;
