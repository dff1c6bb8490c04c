// The page as a browser builds it: parse5 (the HTML standard's tokenizer and tree construction, with its error
// recovery — misnested and unclosed tags, stray end tags, content moved out of tables, `<p>` closed by a block,
// a second `<h3>` opened inside the first, `&` and `<` in text) building litedom's nodes directly through a
// tree adapter, so extraction reads what a visitor sees without a second tree. Comments and the doctype are
// not kept (no extraction step reads them); a <template>'s content stays out of the tree, as in a browser.
import { parse, type TreeAdapter, type TreeAdapterTypeMap } from "parse5";
import { LDocument, LElement, type LNode, type LParent, LText, TEXT_NODE, textChanged } from "./litedom.ts";

/** A comment: created because the parser asks for it, never attached. */
class LComment {
  readonly nodeType = 8;
  parentNode = null;
  constructor(readonly data: string) {}
}

type Map5 = TreeAdapterTypeMap<
  LNode | LComment,
  LParent,
  LNode | LComment,
  LDocument,
  LDocument,
  LElement,
  LComment,
  LText,
  LElement,
  LComment
>;

const HTML_NS = "http://www.w3.org/1999/xhtml";
const templates = new WeakMap<LElement, LDocument>();
const modes = new WeakMap<LDocument, string>();

function appendText(parent: LParent, text: string, before: LNode | null): void {
  const prev = before ? before.previousSibling : parent.lastChild;
  if (prev && prev.nodeType === TEXT_NODE) {
    (prev as LText).data += text;
    textChanged();
    return;
  }
  parent.insertBefore(new LText(text), before);
}

const adapter: TreeAdapter<Map5> = {
  createDocument: () => new LDocument(),
  createDocumentFragment: () => new LDocument(),
  createElement(tagName, namespaceURI, attrs) {
    const record: Record<string, string> = {};
    for (const a of attrs) {
      const name = a.prefix ? `${a.prefix}:${a.name}` : a.name;
      if (!Object.hasOwn(record, name)) record[name] = a.value;
    }
    const el = new LElement(tagName, record);
    if (namespaceURI !== HTML_NS) el.namespaceURI = namespaceURI;
    return el;
  },
  createCommentNode: (data) => new LComment(data),
  createTextNode: (value) => new LText(value),
  appendChild(parent, node) {
    if (node instanceof LComment) return;
    parent.appendChild(node);
  },
  insertBefore(parent, node, ref) {
    if (node instanceof LComment) return;
    parent.insertBefore(node, ref instanceof LComment ? null : ref);
  },
  setTemplateContent(template, content) {
    templates.set(template, content);
  },
  getTemplateContent(template) {
    let c = templates.get(template);
    if (!c) {
      c = new LDocument();
      templates.set(template, c);
    }
    return c;
  },
  setDocumentType() {},
  setDocumentMode(doc, mode) {
    modes.set(doc, mode);
  },
  getDocumentMode: (doc) =>
    (modes.get(doc) ?? "no-quirks") as ReturnType<TreeAdapter<Map5>["getDocumentMode"]>,
  detachNode(node) {
    if (!(node instanceof LComment)) node.remove();
  },
  insertText(parent, text) {
    appendText(parent, text, null);
  },
  insertTextBefore(parent, text, ref) {
    appendText(parent, text, ref instanceof LComment ? null : ref);
  },
  adoptAttributes(el, attrs) {
    for (const a of attrs) el.adoptAttribute(a.prefix ? `${a.prefix}:${a.name}` : a.name, a.value);
  },
  getFirstChild: (node) => node.firstChild,
  getChildNodes: (node) => node.childNodes as LNode[],
  getParentNode: (node) => node.parentNode,
  getAttrList: (el) => el.attributeList(),
  getTagName: (el) => el.localName,
  getNamespaceURI: (el) => (el.namespaceURI ?? HTML_NS) as ReturnType<TreeAdapter<Map5>["getNamespaceURI"]>,
  getTextNodeContent: (node) => node.data,
  getCommentNodeContent: (node) => node.data,
  getDocumentTypeNodeName: () => "",
  getDocumentTypeNodePublicId: () => "",
  getDocumentTypeNodeSystemId: () => "",
  isTextNode: (node): node is LText => node instanceof LText,
  isCommentNode: (node): node is LComment => node instanceof LComment,
  isDocumentTypeNode: (_node): _node is LComment => false,
  isElementNode: (node): node is LElement => node instanceof LElement,
  setNodeSourceCodeLocation() {},
  getNodeSourceCodeLocation: () => undefined,
  updateNodeSourceCodeLocation() {},
};

/** Parses a page with the HTML standard's tree construction into litedom nodes. */
export function parseStandard(html: string): LDocument {
  return parse<Map5>(html, { treeAdapter: adapter, scriptingEnabled: false }) as LDocument;
}
