// A small read-mostly DOM for extraction, built by htmlparser2 (the tokenizer and tree rules linkedom uses,
// with the same handlers, so the tree is the one linkedom builds). linkedom spent two thirds of its parse on
// per-node bookkeeping extraction never uses (an event-listener map per node, attribute nodes, custom
// elements) and rebuilt child lists on every `childNodes`/`children` read; here a node is a few fields and
// child lists are cached arrays. Only what extraction reads is implemented: tree navigation, text,
// attributes, `remove()`, `insertBefore()` and `cloneNode()`. Comments are not kept (no extraction step reads them).
import { Parser } from "htmlparser2";

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const DOCUMENT_NODE = 9;

export abstract class LNode {
  abstract readonly nodeType: number;
  parentNode: LParent | null = null;
  previousSibling: LNode | null = null;
  nextSibling: LNode | null = null;

  /** A text node's text; null for elements and documents (as in the DOM). */
  get nodeValue(): string | null {
    return null;
  }

  abstract get textContent(): string;

  get parentElement(): LElement | null {
    const p = this.parentNode;
    return p && p.nodeType === ELEMENT_NODE ? (p as LElement) : null;
  }

  get nextElementSibling(): LElement | null {
    let n = this.nextSibling;
    while (n && n.nodeType !== ELEMENT_NODE) n = n.nextSibling;
    return n as LElement | null;
  }

  get previousElementSibling(): LElement | null {
    let n = this.previousSibling;
    while (n && n.nodeType !== ELEMENT_NODE) n = n.previousSibling;
    return n as LElement | null;
  }

  /** Detaches the node from its parent. */
  remove(): void {
    const p = this.parentNode;
    if (!p) return;
    if (this.previousSibling) this.previousSibling.nextSibling = this.nextSibling;
    else p.firstChild = this.nextSibling;
    if (this.nextSibling) this.nextSibling.previousSibling = this.previousSibling;
    else p.lastChild = this.previousSibling;
    this.parentNode = this.previousSibling = this.nextSibling = null;
    p.changed();
  }
}

export class LText extends LNode {
  readonly nodeType = TEXT_NODE;
  constructor(public data: string) {
    super();
  }
  override get nodeValue(): string {
    return this.data;
  }
  get textContent(): string {
    return this.data;
  }
}

export abstract class LParent extends LNode {
  firstChild: LNode | null = null;
  lastChild: LNode | null = null;
  private nodes: LNode[] | null = null;
  private elements: LElement[] | null = null;

  /** Appends a detached node (parsing and cloning only). */
  appendChild<T extends LNode>(node: T): T {
    node.parentNode = this;
    node.previousSibling = this.lastChild;
    if (this.lastChild) this.lastChild.nextSibling = node;
    else this.firstChild = node;
    this.lastChild = node;
    this.changed();
    return node;
  }

  /** Inserts a detached node before `ref` (a child of this node), or at the end when `ref` is null. */
  insertBefore<T extends LNode>(node: T, ref: LNode | null): T {
    if (!ref || ref.parentNode !== this) return this.appendChild(node);
    node.parentNode = this;
    node.previousSibling = ref.previousSibling;
    node.nextSibling = ref;
    if (ref.previousSibling) ref.previousSibling.nextSibling = node;
    else this.firstChild = node;
    ref.previousSibling = node;
    this.changed();
    return node;
  }

  /** Drops the cached child lists after a change. */
  changed(): void {
    this.nodes = null;
    this.elements = null;
  }

  /** The child nodes, as an array kept until the children change (do not modify it). */
  get childNodes(): readonly LNode[] {
    if (!this.nodes) {
      const out: LNode[] = [];
      for (let n = this.firstChild; n; n = n.nextSibling) out.push(n);
      this.nodes = out;
    }
    return this.nodes;
  }

  /** The child elements, as an array kept until the children change (do not modify it). */
  get children(): readonly LElement[] {
    if (!this.elements) {
      const out: LElement[] = [];
      for (let n = this.firstChild; n; n = n.nextSibling)
        if (n.nodeType === ELEMENT_NODE) out.push(n as LElement);
      this.elements = out;
    }
    return this.elements;
  }

  get firstElementChild(): LElement | null {
    let n = this.firstChild;
    while (n && n.nodeType !== ELEMENT_NODE) n = n.nextSibling;
    return n as LElement | null;
  }

  get lastElementChild(): LElement | null {
    let n = this.lastChild;
    while (n && n.nodeType !== ELEMENT_NODE) n = n.previousSibling;
    return n as LElement | null;
  }

  /** The text of every descendant text node, in document order (iterative: any depth). */
  get textContent(): string {
    let out = "";
    let n = this.firstChild;
    while (n) {
      if (n.nodeType === TEXT_NODE) out += (n as LText).data;
      else if ((n as LParent).firstChild) {
        n = (n as LParent).firstChild!;
        continue;
      }
      while (n && !n.nextSibling) {
        n = n.parentNode;
        if (n === this) return out;
      }
      n = n ? n.nextSibling : null;
    }
    return out;
  }
}

export class LElement extends LParent {
  readonly nodeType = ELEMENT_NODE;
  /** Upper case, as the DOM gives it for HTML documents. */
  readonly tagName: string;
  constructor(
    readonly localName: string,
    private readonly attrs: Record<string, string>,
  ) {
    super();
    this.tagName = localName.toUpperCase();
  }

  /** The attribute's value as written (names are case-sensitive, as linkedom compares them); null when absent. */
  getAttribute(name: string): string | null {
    return Object.hasOwn(this.attrs, name) ? (this.attrs[name] as string) : null;
  }

  hasAttribute(name: string): boolean {
    return Object.hasOwn(this.attrs, name);
  }

  cloneNode(deep = false): LElement {
    const copy = new LElement(this.localName, { ...this.attrs });
    if (!deep) return copy;
    // iterative: a clone of a deep subtree must not overflow the stack
    const stack: [LParent, LParent][] = [[this, copy]];
    while (stack.length) {
      const [from, to] = stack.pop()!;
      for (let n = from.firstChild; n; n = n.nextSibling) {
        if (n.nodeType === TEXT_NODE) to.appendChild(new LText((n as LText).data));
        else {
          const e = n as LElement;
          const c = to.appendChild(new LElement(e.localName, { ...e.attrs }));
          if (e.firstChild) stack.push([e, c]);
        }
      }
    }
    return copy;
  }
}

export class LDocument extends LParent {
  readonly nodeType = DOCUMENT_NODE;

  /** The first element of the document. */
  get documentElement(): LElement | null {
    return this.firstElementChild;
  }

  /** The <body> where linkedom finds it: the document element's first element child, or the one after a
   *  leading <head>; null when that is not a <body> (linkedom then makes an empty one). */
  get body(): LElement | null {
    const first = this.documentElement?.firstElementChild ?? null;
    const candidate = first?.tagName === "HEAD" ? first.nextElementSibling : first;
    return candidate?.tagName === "BODY" ? candidate : null;
  }
}

const LINK_SCOPE = new Set(["TD", "TH", "CAPTION", "TABLE", "BODY", "HTML", "TEMPLATE"]);

/** The <a> element `node` is inside (up to a table cell or the body), if any. */
function openLink(node: LParent): LElement | null {
  for (let n: LParent | null = node; n && n.nodeType === ELEMENT_NODE; n = n.parentNode) {
    const tag = (n as LElement).tagName;
    if (tag === "A") return n as LElement;
    if (LINK_SCOPE.has(tag)) return null;
  }
  return null;
}

/** Sees the parser's events as the tree is built (for a signature of what the tree is built from). */
export interface ParseObserver {
  onopentag(name: string, attributes: Record<string, string>): void;
  ontext(text: string): void;
  onclosetag(name: string): void;
  oncomment(): void;
}

/** Parses HTML as linkedom's parseHTML does (same parser options and tree building), into an LDocument.
 *  `observe` sees every event as well, in the same single pass. */
export function parseLite(html: string, observe?: ParseObserver): LDocument {
  const doc = new LDocument();
  let node: LParent = doc;
  // where each open element's close returns to (the parser's stack, one entry per open element)
  const back: LParent[] = [];
  const build = {
    onopentag(name: string, attributes: Record<string, string>) {
      let parent = node;
      // A link inside an open link is a parse error a browser recovers by closing the open one (the HTML
      // standard's adoption agency for <a>): an unclosed </a> does not swallow the links that follow.
      if (name === "a") {
        const open = openLink(node);
        if (open?.parentNode) parent = open.parentNode;
      }
      back.push(parent);
      node = parent.appendChild(new LElement(name, attributes));
    },
    ontext(text: string) {
      node.appendChild(new LText(text));
    },
    onclosetag() {
      node = back.pop() ?? doc;
    },
  };
  const handlers = observe
    ? {
        onopentag(name: string, attributes: Record<string, string>) {
          observe.onopentag(name, attributes);
          build.onopentag(name, attributes);
        },
        ontext(text: string) {
          observe.ontext(text);
          build.ontext(text);
        },
        onclosetag(name: string) {
          observe.onclosetag(name);
          build.onclosetag();
        },
        oncomment() {
          observe.oncomment();
        },
      }
    : build;
  const parser = new Parser(handlers, { lowerCaseAttributeNames: false, decodeEntities: true });
  parser.end(html);
  return doc;
}
