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
