// A tiny, safe Markdown subset for generated text (digests, guides): everything is escaped first, then
// only headings, lists, paragraphs, bold, italics, inline code, fenced code and http(s) links are
// turned into tags. No raw HTML ever passes through.
import { Html } from "@elysiajs/html";

const esc = (s: string) => Html.escapeHtml(s);

/** Inline markup of one already-escaped line. */
function inline(escaped: string): string {
  // Escapes and code spans first, kept out of the other rules by control-character-delimited placeholders. Such a
  // character already in the text becomes U+FFFD (what an HTML parser shows for it), so it is never a placeholder.
  const codes: string[] = [];
  // A backslash escape (what domain/markdown.ts mdEscape writes) is the character itself, never markup.
  const literals: string[] = [];
  let s = escaped
    .replaceAll("\u0000", "\uFFFD")
    .replaceAll("\u0001", "\uFFFD")
    .replace(/\\(&lt;|&gt;|&amp;|&quot;|&#39;|&#x27;|[\\`*_[\]#|()!+.-])/g, (_, c: string) => {
      literals.push(c);
      return `\u0001${literals.length - 1}\u0001`;
    })
    .replace(/`([^`]+)`/g, (_, c: string) => {
      codes.push(`<code>${c}</code>`);
      return `\u0000${codes.length - 1}\u0000`;
    });
  // [text](http(s)://…): the URL was escaped with the rest (quotes are entities), so it is attribute-safe.
  s = s.replace(/\[([^\]]+)\]\((https?:\/\/[^\s)]+)\)/g, (_, text: string, href: string) => {
    return `<a href="${href}" rel="nofollow noopener noreferrer">${text}</a>`;
  });
  s = s.replace(/\*\*([^*]+)\*\*/g, "<strong>$1</strong>");
  s = s.replace(/(^|[^*\w])\*([^*\s][^*]*)\*(?![*\w])/g, "$1<em>$2</em>");
  return (
    s
      // biome-ignore lint/suspicious/noControlCharactersInRegex: placeholder delimiters
      .replace(/\u0000(\d+)\u0000/g, (_, i: string) => codes[Number(i)])
      // biome-ignore lint/suspicious/noControlCharactersInRegex: placeholder delimiters
      .replace(/\u0001(\d+)\u0001/g, (_, i: string) => literals[Number(i)])
  );
}

/** Renders Markdown to HTML that can only contain the tags this function writes. */
/** The shallowest heading of the text becomes `<h{topLevel}>` (default h2: pages have their own h1). */
export function renderMarkdown(md: string, opts: { topLevel?: number } = {}): string {
  let shallowest = 6;
  let fenced = false;
  for (const l of md.split("\n")) {
    if (/^\s*```/.test(l)) fenced = !fenced;
    const h = fenced ? null : /^(#{1,6})\s/.exec(l);
    if (h) shallowest = Math.min(shallowest, h[1].length);
  }
  const top = (opts.topLevel ?? 2) - (shallowest - 1);
  const out: string[] = [];
  let para: string[] = [];
  let list: { tag: "ul" | "ol"; items: string[] } | null = null;
  const flushPara = () => {
    if (para.length) out.push(`<p>${para.map(inline).join("<br>")}</p>`);
    para = [];
  };
  const flushList = () => {
    if (list)
      out.push(`<${list.tag}>${list.items.map((i) => `<li>${inline(i)}</li>`).join("")}</${list.tag}>`);
    list = null;
  };
  const lines = md.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i];
    if (/^\s*```/.test(raw)) {
      flushPara();
      flushList();
      const code: string[] = [];
      for (i++; i < lines.length && !/^\s*```/.test(lines[i]); i++) code.push(lines[i]);
      out.push(`<pre><code>${esc(code.join("\n"))}</code></pre>`);
      continue;
    }
    const line = esc(raw.trimEnd());
    const h = /^(#{1,6})\s+(.*)$/.exec(line);
    const ul = /^\s*[-*+]\s+(.*)$/.exec(line);
    const ol = /^\s*\d{1,9}[.)]\s+(.*)$/.exec(line);
    if (h) {
      flushPara();
      flushList();
      const level = Math.min(6, top + h[1].length - 1);
      out.push(`<h${level}>${inline(h[2].replace(/\s#+$/, ""))}</h${level}>`);
    } else if (ul || ol) {
      flushPara();
      const tag = ul ? "ul" : "ol";
      if (list && list.tag !== tag) flushList();
      list ??= { tag, items: [] };
      list.items.push((ul ?? ol)![1]);
    } else if (line.trim() === "") {
      flushPara();
      flushList();
    } else if (/^\s*(?:-{3,}|\*{3,})\s*$/.test(line)) {
      flushPara();
      flushList();
      out.push("<hr>");
    } else {
      flushList();
      para.push(line.trim());
    }
  }
  flushPara();
  flushList();
  return out.join("\n");
}

/** A body that starts with its own title as a heading would show the title twice: drop that heading. */
export function stripLeadingTitle(md: string, title: unknown): string {
  if (typeof title !== "string") return md;
  const m = /^\s*#{1,2}\s+(.+)\n?/.exec(md);
  return m && m[1].trim() === title.trim() ? md.slice(m[0].length) : md;
}
