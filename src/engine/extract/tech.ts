/**
 * Technology detection from a page's HTML, its response headers, the script URLs it loads and its
 * cookies, with Rivals' own rule table (techRules.ts). Pure and synchronous; never throws.
 *
 * Prose never matches: `code` patterns run on the page's markup with its text nodes removed plus its
 * inline JavaScript; `urls` patterns run on the URLs of resources the page loads (not on links it shows).
 */
import { TECH_RULES, type TechRule } from "./techRules.ts";

export interface TechInput {
  html?: string;
  /** Response headers (any case of names). `set-cookie` may hold several cookies, newline- or comma-joined. */
  headers?: Record<string, string | string[] | undefined>;
  /** Absolute URLs of the page's scripts (e.g. PageExtract.scripts); those in `html` are read too. */
  scripts?: readonly string[];
  /** Cookie names known otherwise. */
  cookies?: readonly string[];
}

export interface Technology {
  name: string;
  category: string;
  /** What matched, e.g. `script js.stripe.com/v3` or `header cf-ray`. */
  evidence: string;
}

const MAX_HTML = 3 * 1024 * 1024;
const MAX_RESOURCES = 2000;

export function detectTech(input: TechInput): Technology[] {
  try {
    return detect(input ?? {});
  } catch {
    return [];
  }
}

function detect(input: TechInput): Technology[] {
  const html = typeof input.html === "string" ? input.html.slice(0, MAX_HTML) : "";
  const page: HtmlParts = html ? readHtml(html) : { resources: [], code: "", generator: [], links: [] };
  const resources = [...page.resources];
  for (const s of Array.isArray(input.scripts) ? input.scripts : []) {
    if (typeof s === "string" && resources.length < MAX_RESOURCES) resources.push(s);
  }
  const headers = lowerHeaders(input.headers);
  const cookies = cookieNames(headers["set-cookie"] ?? "", input.cookies);

  const hay: Haystacks = {
    code: literalsIn(page.code),
    resources: literalsIn(resources.join("\n")),
  };
  const found = new Map<string, Technology>();
  for (const rule of TECH_RULES) {
    const evidence = matchRule(rule, resources, page, headers, cookies, hay);
    if (evidence) found.set(rule.name, { name: rule.name, category: rule.category, evidence });
  }
  // Implied technologies (Next.js → React), transitively.
  let added = true;
  while (added) {
    added = false;
    for (const tech of [...found.values()]) {
      for (const implied of RULES_BY_NAME.get(tech.name)?.implies ?? []) {
        const rule = RULES_BY_NAME.get(implied);
        if (rule && !found.has(implied)) {
          found.set(implied, { name: implied, category: rule.category, evidence: `implied by ${tech.name}` });
          added = true;
        }
      }
    }
  }
  return TECH_RULES.filter((r) => found.has(r.name)).map((r) => found.get(r.name)!);
}

const RULES_BY_NAME = new Map(TECH_RULES.map((r) => [r.name, r]));

function matchRule(
  rule: TechRule,
  resources: string[],
  page: HtmlParts,
  headers: Record<string, string>,
  cookies: string[],
  hay: Haystacks,
): string | null {
  const { code, generator, links } = page;
  if (rule.headers) {
    for (const [name, re] of Object.entries(rule.headers)) {
      const value = headers[name];
      if (value !== undefined && re.test(value))
        return `header ${name}${value ? `: ${clip(value, 60)}` : ""}`;
    }
  }
  if (rule.meta) {
    for (const g of generator) if (rule.meta.some((re) => re.test(g))) return `meta generator ${clip(g, 60)}`;
  }
  if (rule.urls) {
    for (const re of rule.urls) {
      if (!mayMatch(re, hay.resources)) continue;
      for (const url of resources) {
        const m = re.exec(url);
        if (m) return `resource ${clip(m[0], 80)}`;
      }
    }
  }
  if (rule.code && code) {
    for (const re of rule.code) {
      if (!mayMatch(re, hay.code)) continue;
      const m = re.exec(code);
      if (m) return `code ${clip(m[0], 80)}`;
    }
  }
  if (rule.links) {
    for (const re of rule.links) {
      for (const link of links) {
        const m = re.exec(link);
        if (m) return `link ${clip(m[0], 80)}`;
      }
    }
  }
  if (rule.cookies) {
    for (const c of cookies) if (rule.cookies.some((re) => re.test(c))) return `cookie ${clip(c, 60)}`;
  }
  return null;
}

interface Haystacks {
  /** The rules' required literals present in the code / in the resource URLs. */
  code: Set<string>;
  resources: Set<string>;
}

/** A character that stands for itself after a backslash. */
const ESCAPED_LITERAL = /[./()[\]{}?*+|^$\\'"\-:=<>@#&!,~ ]/;
/** After a backslash: a code point, a back-reference or a class (no literal can be read from them). */
const ESCAPED_OPAQUE = /[xuc0-9kp]/i;
const QUANTIFIER_OR_ANCHOR = /[.^$?*+{}]/;

/**
 * The longest literal every match of `re` must contain, lower-cased (null when there is no safe one of at
 * least 4 characters). Checking it with `includes` first skips most of the ~400 patterns on a page cheaply.
 */
export function requiredLiteral(re: RegExp): string | null {
  const src = re.source;
  let best = "";
  let run = "";
  const flush = () => {
    if (run.length > best.length) best = run;
    run = "";
  };
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    let lit: string | null = null;
    let width = 1;
    if (c === "\\") {
      const n = src[i + 1] ?? "";
      width = 2;
      if (ESCAPED_LITERAL.test(n)) lit = n;
      else if (ESCAPED_OPAQUE.test(n))
        return null; // code points, back-references, classes: give up
      else lit = null; // \s \d \b \w …
    } else if (c === "|") {
      return null; // a top-level alternative: nothing is required
    } else if (c === "(") {
      // skip the group (it may be optional or an alternation)
      flush();
      let depth = 0;
      for (; i < src.length; i++) {
        if (src[i] === "\\") {
          i++;
          continue;
        }
        if (src[i] === "[") {
          while (i < src.length && src[i] !== "]") i += src[i] === "\\" ? 2 : 1;
          continue;
        }
        if (src[i] === "(") depth++;
        else if (src[i] === ")" && --depth === 0) break;
      }
      continue;
    } else if (c === "[") {
      flush();
      while (i < src.length && src[i] !== "]") i += src[i] === "\\" ? 2 : 1;
      continue;
    } else if (c === "{") {
      flush();
      while (i < src.length && src[i] !== "}") i++;
      continue;
    } else if (!QUANTIFIER_OR_ANCHOR.test(c)) {
      lit = c;
    }
    const next = src[i + width] ?? "";
    if (lit === null) {
      flush();
    } else if (next === "?" || next === "*" || next === "{") {
      flush(); // optional or counted: not required as written
    } else {
      run += lit;
      if (next === "+") flush();
    }
    i += width - 1;
  }
  flush();
  return best.length >= 4 ? best.toLowerCase() : null;
}

/** Each url/code pattern's required literal, and one regex that finds them all in a single pass. */
const LITERALS = new Map<RegExp, string | null>();
for (const rule of TECH_RULES) {
  for (const re of [...(rule.urls ?? []), ...(rule.code ?? [])]) LITERALS.set(re, requiredLiteral(re));
}
const ALL_LITERALS = [...new Set([...LITERALS.values()].filter((l): l is string => l !== null))].sort(
  (a, b) => b.length - a.length,
);
const REGEXP_SPECIAL = /[.*+?^${}()|[\]\\/-]/g;
const FIND_LITERALS = new RegExp(ALL_LITERALS.map((l) => l.replace(REGEXP_SPECIAL, "\\$&")).join("|"), "gi");
/** For a matched literal, every literal that is a prefix of it (matched at the same place). */
const PREFIXES = new Map(ALL_LITERALS.map((l) => [l, ALL_LITERALS.filter((p) => l.startsWith(p))]));

/** The literals present in `text`, overlapping ones included (the scan restarts one character on). */
function literalsIn(text: string): Set<string> {
  const found = new Set<string>();
  if (!text || ALL_LITERALS.length === 0) return found;
  // one pattern for every scan: a global pattern resumes from lastIndex, so each scan starts it at 0
  const re = FIND_LITERALS;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    for (const p of PREFIXES.get(m[0].toLowerCase()) ?? []) found.add(p);
    re.lastIndex = m.index + 1;
  }
  return found;
}

function mayMatch(re: RegExp, present: Set<string>): boolean {
  const lit = LITERALS.get(re);
  return lit == null || present.has(lit);
}

const SPACES = /\s+/g;

function clip(s: string, max: number): string {
  const t = s.replace(SPACES, " ").trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function lowerHeaders(h: TechInput["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  if (!h || typeof h !== "object") return out;
  for (const [k, v] of Object.entries(h)) {
    if (v === undefined || v === null) continue;
    out[k.toLowerCase()] = Array.isArray(v) ? v.join("\n") : String(v);
  }
  return out;
}

const COOKIE_NAME = /(?:^|\n|,\s*)([!#$%&'*+\-.^_`|~0-9A-Za-z]+)=/g;
const COOKIE_ATTRIBUTE = /^(?:expires|max-age|domain|path|samesite|priority|partitioned)$/i;

/** Cookie names of Set-Cookie values (joined by newlines or by ", " as fetch's Headers does) plus `extra`. */
function cookieNames(setCookie: string, extra?: readonly string[]): string[] {
  const names = new Set<string>();
  for (const m of setCookie.matchAll(COOKIE_NAME)) {
    const name = m[1];
    if (!COOKIE_ATTRIBUTE.test(name)) names.add(name);
  }
  for (const c of Array.isArray(extra) ? extra : []) if (typeof c === "string" && c) names.add(c.trim());
  return [...names];
}

interface HtmlParts {
  /** URLs of resources the page loads: script/iframe/img/source/embed src, stylesheet/preload href, form action. */
  resources: string[];
  /** Markup without text nodes, anchors or prose attributes, followed by the inline JavaScript. */
  code: string;
  generator: string[];
  /** Anchors' href. */
  links: string[];
}

const ATTR = /([A-Za-z_:][-A-Za-z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+))/g;
const AMP_ENTITY = /&amp;/g;

function attrsOf(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  // exec on the one pattern rather than matchAll (which copies it for every tag of the page); a global
  // pattern resumes from lastIndex, so each tag is read from 0
  ATTR.lastIndex = 0;
  for (let m = ATTR.exec(tag); m; m = ATTR.exec(tag)) {
    const name = m[1].toLowerCase();
    if (!(name in out)) out[name] = (m[2] ?? m[3] ?? m[4] ?? "").replace(AMP_ENTITY, "&");
  }
  return out;
}

const COMMENT = /<!--[\s\S]*?-->/g;
const SCRIPT_ELEMENT = /(<script\b[^>]*>)([\s\S]*?)<\/script\s*>/gi;
const JAVASCRIPT_TYPE = /javascript|ecmascript/;
const STYLE_ELEMENT = /(<style\b[^>]*>)[\s\S]*?<\/style\s*>/gi;
const TEXTAREA_OR_TITLE_ELEMENT = /(<(?:textarea|title)\b[^>]*>)[\s\S]*?<\/(?:textarea|title)\s*>/gi;
const TEXT_NODE = />[^<]+</g;
const RESOURCE_TAG = /<(script|link|iframe|img|source|embed|form|video|audio|meta|a)\b[^>]*>/gi;
const LOADED_REL = /\b(?:stylesheet|preload|modulepreload|prefetch|icon)\b/;
const WHITESPACE = /\s+/;
const ANCHOR_TAG = /<a\b[^>]*>/gi;
const PROSE_ATTRIBUTE =
  /\s(?:alt|title|content|aria-label|aria-description|placeholder|label)\s*=\s*(?:"[^"]*"|'[^']*')/gi;

function readHtml(html: string): HtmlParts {
  const resources: string[] = [];
  const generator: string[] = [];
  const links: string[] = [];
  const inline: string[] = [];
  const noComments = html.replace(COMMENT, "");
  // Scripts: keep the opening tag in the markup; keep the body only when it is JavaScript.
  const markup = noComments
    .replace(SCRIPT_ELEMENT, (_all, open: string, body: string) => {
      const type = (attrsOf(open).type ?? "").toLowerCase().trim();
      if (body && (type === "" || type === "module" || JAVASCRIPT_TYPE.test(type))) inline.push(body);
      return open;
    })
    .replace(STYLE_ELEMENT, "$1")
    .replace(TEXTAREA_OR_TITLE_ELEMENT, "$1")
    .replace(TEXT_NODE, "><");

  for (const m of markup.matchAll(RESOURCE_TAG)) {
    if (resources.length >= MAX_RESOURCES) break;
    const tag = m[1].toLowerCase();
    const a = attrsOf(m[0]);
    if (tag === "a") {
      if (a.href && links.length < MAX_RESOURCES) links.push(a.href);
      continue;
    }
    if (tag === "meta") {
      if ((a.name ?? "").toLowerCase() === "generator" && a.content) generator.push(a.content.trim());
      continue;
    }
    if (tag === "link") {
      const rel = (a.rel ?? "").toLowerCase();
      if (LOADED_REL.test(rel) && a.href) resources.push(a.href);
      continue;
    }
    if (tag === "form") {
      if (a.action) resources.push(a.action);
      continue;
    }
    for (const key of ["src", "data-src"]) if (a[key]) resources.push(a[key]);
    if (a.srcset) for (const part of a.srcset.split(",")) resources.push(part.trim().split(WHITESPACE)[0]);
  }
  // Anchors (links a page shows) and attributes that carry prose are no code.
  const bare = markup.replace(ANCHOR_TAG, "<a>").replace(PROSE_ATTRIBUTE, "");
  const code = `${bare}\n${inline.join("\n")}`;
  return { resources: resources.filter(Boolean), code, generator, links };
}
