// Personio: career pages at {company}.jobs.personio.de (the EU host) or {company}.jobs.personio.com, read through
// the XML feed at the same host's /xml: `<workzag-jobs><position><id/><subcompany/><office/><additionalOffices>
// <office/></additionalOffices><department/><recruitingCategory/><name/><jobDescriptions>…</jobDescriptions>
// <employmentType/><schedule/><createdAt/></position>…</workzag-jobs>`. A job's page is /job/{id} on that host.
import type { ChildNode, Element } from "domhandler";
import { parseDocument } from "htmlparser2";
import { isoDate, job, str } from "../util.ts";
import type { BoardSpec } from "./types.ts";

export const personio: BoardSpec = {
  provider: "personio",
  name: "Personio",
  fromUrl(host) {
    const m = /^([a-z0-9][a-z0-9-]*)\.jobs\.personio\.(de|com)$/.exec(host);
    if (!m || m[1] === "www") return null;
    return m[2] === "de" ? { token: m[1]!, region: "eu" } : { token: m[1]! };
  },
  apiUrl: (token, region) =>
    `https://${token.toLowerCase()}.jobs.personio.${region === "eu" ? "de" : "com"}/xml`,
  parse(text, board) {
    const body = String(text)
      .replace(/^\uFEFF/, "")
      .trim();
    // The whole document or nothing: a feed cut short (no closing root) is not a shorter list.
    if (!/^(?:<\?xml[^>]*\?>\s*)?<workzag-jobs\b/.test(body)) return null;
    if (!/<\/workzag-jobs>$/.test(body) && !/^(?:<\?xml[^>]*\?>\s*)?<workzag-jobs\s*\/>$/.test(body))
      return null;
    const root = elements(parseDocument(body, { xmlMode: true }).children).find(
      (e) => e.name === "workzag-jobs",
    );
    if (!root) return null;
    const origin = `https://${board.token.toLowerCase()}.jobs.personio.${board.region === "eu" ? "de" : "com"}`;
    const jobs = [];
    for (const p of elements(root.children)) {
      if (p.name !== "position") continue;
      const title = str(field(p, "name"));
      if (!title) continue;
      const id = field(p, "id")?.trim();
      jobs.push(
        job(
          title,
          str(field(p, "department")) ?? str(field(p, "recruitingCategory")),
          str(field(p, "office")),
          board.token && id && /^\d{1,20}$/.test(id) ? `${origin}/job/${id}` : undefined,
          isoDate(field(p, "createdAt")),
        ),
      );
    }
    return { jobs };
  },
};

function elements(nodes: ChildNode[]): Element[] {
  return nodes.filter((n): n is Element => n.type === "tag");
}

/** The text of a direct child element (CDATA included). */
function field(e: Element, name: string): string | undefined {
  const c = elements(e.children).find((x) => x.name === name);
  return c ? textOf(c.children) : undefined;
}

function textOf(nodes: ChildNode[]): string {
  let out = "";
  for (const n of nodes) {
    if (n.type === "text") out += n.data;
    else if ("children" in n) out += textOf(n.children as ChildNode[]);
  }
  return out;
}
