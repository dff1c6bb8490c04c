// Whether served HTML is an application shell: a page whose content a script builds in the browser (a mount
// node such as <div id="root"></div>, scripts, and next to no visible text). Such a page read as served says
// nothing about the competitor; compared with an earlier rendered version it would read as "the page
// emptied". The engine renders it in a browser (render/browser.ts) or reports that it needs one.
import { Parser } from "htmlparser2";

/** Ids and attributes the common frameworks mount their application on. */
const MOUNT_IDS = new Set([
  "root",
  "app",
  "__next",
  "__nuxt",
  "___gatsby",
  "svelte",
  "q-app",
  "main-app",
  "application",
]);
const MOUNT_ATTRIBUTES = ["ng-version", "ng-app", "data-reactroot", "data-v-app", "data-server-rendered"];
/** Text that is not visible content. */
const INVISIBLE = new Set(["script", "style", "noscript", "template", "svg", "head", "title"]);
const SPACES = /\s+/g;
const ASKS_FOR_SCRIPT = /enable javascript|requires javascript|javascript (is )?(required|disabled)/i;
/** Less visible text than this (characters, whitespace collapsed) is "next to none". */
const LITTLE_TEXT = 200;
/** A mount node holding less than this is empty: it is waiting for its script. */
const EMPTY_MOUNT = 20;

export interface ShellVerdict {
  shell: boolean;
  /** Visible text characters outside scripts, styles and templates. */
  text: number;
  scripts: number;
  /** An empty element the page's scripts mount on. */
  emptyMount: boolean;
  /** A <noscript> that asks for JavaScript. */
  asksForScript: boolean;
}

/** Thrown from the parser's callback to stop it: the verdict is known. */
const ENOUGH = Symbol("enough text");

/** The page's verdict. `stopAt`: stop reading once this much visible text is counted (a page with that much
 * text is no shell whatever follows; its other counts are then of the part read). */
export function shellVerdict(html: string, stopAt = Number.POSITIVE_INFINITY): ShellVerdict {
  let text = 0;
  let scripts = 0;
  let invisible = 0;
  let inNoscript = false;
  let noscriptText = "";
  /** Open mount nodes: the text count when each opened, and its depth. */
  const mounts: { at: number; depth: number }[] = [];
  let depth = 0;
  let emptyMount = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        depth++;
        if (name === "script") scripts++;
        if (name === "noscript") inNoscript = true;
        if (INVISIBLE.has(name)) invisible++;
        const id = (attrs.id ?? "").toLowerCase();
        if (MOUNT_IDS.has(id) || MOUNT_ATTRIBUTES.some((a) => a in attrs)) mounts.push({ at: text, depth });
      },
      ontext(data) {
        if (inNoscript) noscriptText += data;
        if (invisible > 0) return;
        text += data.replace(SPACES, " ").trim().length;
        if (text >= stopAt) throw ENOUGH;
      },
      onclosetag(name) {
        const top = mounts[mounts.length - 1];
        if (top && top.depth === depth) {
          mounts.pop();
          if (text - top.at < EMPTY_MOUNT) emptyMount = true;
        }
        if (INVISIBLE.has(name)) invisible = Math.max(0, invisible - 1);
        if (name === "noscript") inNoscript = false;
        depth--;
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  try {
    parser.write(html);
    parser.end();
  } catch (e) {
    if (e !== ENOUGH) throw e;
  }
  const asksForScript = ASKS_FOR_SCRIPT.test(noscriptText);
  const shell = scripts > 0 && text < LITTLE_TEXT && (emptyMount || asksForScript || text < EMPTY_MOUNT);
  return { shell, text, scripts, emptyMount, asksForScript };
}

/** Whether the page is an application shell. It reads only as far as its first LITTLE_TEXT characters of
 * visible text: a shell has fewer in all (a ~100 KB page of content: 3.5 ms read whole, on the main thread). */
export function isAppShell(html: string): boolean {
  return shellVerdict(html, LITTLE_TEXT).shell;
}
