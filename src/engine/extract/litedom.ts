// A small read-mostly DOM for extraction, built by parse5 (the HTML standard's tree construction) through the
// tree adapter in standardTree.ts; htmlparser2's tokenizer reads a page for its signature (observeParse, no tree).
// linkedom, which extraction used before, spent two thirds of its parse on
// per-node bookkeeping extraction never uses (an event-listener map per node, attribute nodes, custom
// elements) and rebuilt child lists on every `childNodes`/`children` read; here a node is a few fields and
// child lists are cached arrays. Only what extraction reads is implemented: tree navigation, text,
// attributes, `remove()`, `insertBefore()` and `cloneNode()`. Comments are not kept (no extraction step reads them).
import { Tokenizer } from "htmlparser2";

export const ELEMENT_NODE = 1;
export const TEXT_NODE = 3;
export const DOCUMENT_NODE = 9;

/** Counts every change to any tree's nodes or texts: a memo of a subtree's text taken at another count is stale. */
let changes = 0;
export const treeChanges = (): number => changes;
/** A text node's text grew (the parser appends the text of adjacent tokens to one node). */
export function textChanged(): void {
  changes++;
}

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
    changes++;
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

  /** The element's namespace (parse5 reads it back while building foreign content); HTML when unset. */
  namespaceURI?: string;

  /** Whether every descendant element is inline: hasOnlyInline's memo (dom.ts), a field rather than a weak map
   *  entry as it is asked of thousands of elements a page. */
  onlyInline?: boolean;

  /** textOf's memo (dom.ts) and the tree change count it was taken at: a card's title, a list item or a cell is
   *  read by several readers of the page. */
  text?: string;
  textAt = -1;

  /** Adds an attribute the element does not have yet (the parser's adoption of a repeated <html>/<body>). */
  adoptAttribute(name: string, value: string): void {
    if (!Object.hasOwn(this.attrs, name)) this.attrs[name] = value;
  }

  /** The attributes as written, in order. */
  attributeList(): { name: string; value: string }[] {
    return Object.entries(this.attrs).map(([name, value]) => ({ name, value }));
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

/** Sees the tokenizer's events (for a signature of what the tree is built from). */
export interface ParseObserver {
  onopentag(name: string, attributes: Record<string, string>): void;
  ontext(text: string): void;
  onclosetag(name: string): void;
  oncomment(): void;
}

const fromCodePoint = String.fromCodePoint;

/** Runs htmlparser2's tokenizer over the page for an observer only: no tree, and not its Parser either, whose
 *  open-element stack, implied end tags and chunk buffers a signature does not need (the tokens already decide
 *  them). Tag names are lower-cased, attribute names kept as written (the first of a repeated one counts),
 *  entities decoded; every end tag is reported, even one that closes nothing, and a void or self-closing element
 *  has none. */
export function observeParse(html: string, observe: ParseObserver): void {
  let name = "";
  let attributes: Record<string, string> = {};
  let attribute = "";
  let value = "";
  const tokenizer = new Tokenizer(
    { decodeEntities: true },
    {
      onopentagname(start, end) {
        name = html.slice(start, end).toLowerCase();
        attributes = {};
      },
      onattribname(start, end) {
        attribute = html.slice(start, end);
      },
      onattribdata(start, end) {
        value += html.slice(start, end);
      },
      onattribentity(codepoint) {
        value += fromCodePoint(codepoint);
      },
      onattribend() {
        if (!Object.hasOwn(attributes, attribute)) attributes[attribute] = value;
        value = "";
      },
      onopentagend() {
        observe.onopentag(name, attributes);
      },
      onselfclosingtag() {
        observe.onopentag(name, attributes);
      },
      onclosetag(start, end) {
        observe.onclosetag(html.slice(start, end).toLowerCase());
      },
      ontext(start, end) {
        observe.ontext(html.slice(start, end));
      },
      ontextentity(codepoint) {
        observe.ontext(fromCodePoint(codepoint));
      },
      oncomment() {
        observe.oncomment();
      },
      // outside foreign content a CDATA section is a comment, as the HTML standard reads it
      oncdata() {
        observe.oncomment();
      },
      ondeclaration() {},
      onprocessinginstruction() {},
      onend() {},
    },
  );
  tokenizer.write(html);
  tokenizer.end();
}
