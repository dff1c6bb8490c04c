// Consent banners, chat widgets and other overlays, recognised by what they are — never by a vendor's name in
// a class or id, which may be content (an integration card id="intercom", a section class="gdpr"):
// - dialogs: role="dialog"/"alertdialog" or aria-modal="true" (a <dialog> is dropped with the other
//   non-content tags, and so are the widgets' iframes and scripts);
// - fixed overlays: inline `position: fixed` or a `fixed` utility class, small and not the site's navigation;
// - consent banners: a short block that speaks of cookies, consent or tracking and holds an accept, reject
//   or preferences control;
// - chat launchers: a short block outside the page's content (after its footer, or a fixed, live or button
//   element) that invites to chat.
// An element that holds <main>, an <h1>, an <article> or over 4,000 characters is never an overlay.
import { attr, clean, descendants, type El, findFirst, isTag } from "./dom.ts";

const CONTROL_TEXT =
  /^(?:accept|accept all|accept all cookies|accept cookies|allow|allow all|allow all cookies|allow cookies|agree|i agree|agree and close|got it|ok|okay|i understand|understood|reject|reject all|reject all cookies|decline|decline all|deny|deny all|refuse|refuse all|necessary only|only necessary|essential only|use necessary cookies only|manage cookies|manage preferences|manage settings|cookie settings|cookies settings|cookie preferences|preferences|customi[sz]e|settings|save preferences|save and close|continue without accepting)[.!]?$/i;
const CONSENT_TEXT =
  /\b(?:cookies?|consent|tracking technolog(?:y|ies)|personal data|your privacy|privacy preferences|we and our partners|do not sell)\b/i;
const CHAT_TEXT =
  /\b(?:chat with|live chat|chat now|start a chat|open chat|message us|send us a message|questions\?|need help\?|how can we help|we(?:'|’| a)re online|we reply|typically replies|ask us anything|talk to a human)\b/i;
const FIXED_STYLE = /position\s*:\s*fixed/i;
const FIXED_CLASS = /(^|\s)fixed(\s|$)/;
const STOP = new Set(["HTML", "BODY", "MAIN", "ARTICLE"]);
const CONTENT = new Set(["MAIN", "ARTICLE", "HEADER", "NAV", "FOOTER"]);

function holdsPage(el: El): boolean {
  if (STOP.has(el.tagName)) return true;
  if (findFirst(el, isTag("main", "h1", "article"))) return true;
  return (el.textContent?.length ?? 0) > 4000;
}

/** A dialog that is not the site's menu (a mobile navigation drawer may be role="dialog" too). */
function isDialog(el: El): boolean {
  const role = attr(el, "role");
  if (role !== "dialog" && role !== "alertdialog" && attr(el, "aria-modal") !== "true") return false;
  return !findFirst(el, isTag("nav")) && descendants(el).filter(isTag("a")).length <= 8;
}

function isFixed(el: El): boolean {
  return FIXED_STYLE.test(attr(el, "style")) || FIXED_CLASS.test(attr(el, "class"));
}

/** A fixed element that is an overlay, not a fixed site header or navigation bar. */
function isFixedOverlay(el: El): boolean {
  if (!isFixed(el) || el.tagName === "NAV" || el.tagName === "HEADER") return false;
  if (findFirst(el, isTag("nav", "header"))) return false;
  if (descendants(el).filter(isTag("a")).length > 5) return false;
  return clean(el.textContent).length <= 800;
}

/** The consent banner around an accept/reject/preferences control: the nearest ancestor (up to six levels)
 *  whose text speaks of cookies or consent beyond the controls themselves, at most 1,500 characters. */
function consentBannerOf(control: El): El | null {
  let e: El | null = control.parentElement;
  for (let i = 0; e && i < 6; i++, e = e.parentElement) {
    if (STOP.has(e.tagName) || CONTENT.has(e.tagName)) return null;
    if (clean(e.textContent).length > 1500) return null;
    const prose = proseOf(e);
    if (prose.length >= 20 && CONSENT_TEXT.test(prose)) return e;
  }
  return null;
}

/** The element's text without its links and buttons (a banner's sentence, not its controls). */
function proseOf(el: El): string {
  let out = "";
  const walk = (n: El) => {
    for (let c = n.firstChild; c; c = c.nextSibling) {
      if (c.nodeType === 3) out += ` ${c.nodeValue}`;
      else if (c.nodeType === 1) {
        const e = c as El;
        if (e.tagName !== "BUTTON" && e.tagName !== "A" && attr(e, "role") !== "button") walk(e);
      }
    }
  };
  walk(el);
  return clean(out);
}

function inContent(el: El): boolean {
  for (let e = el.parentElement; e; e = e.parentElement) if (CONTENT.has(e.tagName)) return true;
  return false;
}

/** The chat launcher around an element that invites to chat: its largest ancestor below the page's
 *  structure that is still a short block outside content. */
function chatWidgetOf(el: El): El | null {
  let best: El | null = null;
  for (let e: El | null = el; e && !STOP.has(e.tagName) && !CONTENT.has(e.tagName); e = e.parentElement) {
    if (clean(e.textContent).length > 300 || findFirst(e, isTag("main", "footer", "header", "nav"))) break;
    best = e;
  }
  return best;
}

const CHAT_LABEL = /\b(chat|messenger)\b/i;
/** Overlays of the page (see the top of this file), outermost only. */
export function overlaysIn(root: El): El[] {
  const all = descendants(root);
  const found = new Set<El>();
  // the position of the last footer: what follows it is outside the page's layout
  let lastFooter = -1;
  all.forEach((e, i) => {
    if (e.tagName === "FOOTER" || attr(e, "role") === "contentinfo") lastFooter = i;
  });
  let footerEnd = -1;
  if (lastFooter >= 0) {
    const f = all[lastFooter]!;
    footerEnd = lastFooter;
    while (footerEnd + 1 < all.length && all[footerEnd + 1]!.parentElement && within(all[footerEnd + 1]!, f))
      footerEnd++;
  }
  all.forEach((e, i) => {
    if (isDialog(e) || isFixedOverlay(e)) {
      found.add(e);
      return;
    }
    const tag = e.tagName;
    if (tag === "BUTTON" || tag === "A" || attr(e, "role") === "button") {
      const t = clean(e.textContent);
      if (t.length <= 40 && CONTROL_TEXT.test(t)) {
        const banner = consentBannerOf(e);
        if (banner) found.add(banner);
      }
    }
    const launcherLike =
      (footerEnd >= 0 && i > footerEnd) ||
      attr(e, "role") === "button" ||
      attr(e, "aria-live") !== "" ||
      isFixed(e);
    if (launcherLike && !inContent(e)) {
      const t = clean(e.textContent);
      if (t && t.length <= 300 && (CHAT_TEXT.test(t) || CHAT_LABEL.test(attr(e, "aria-label")))) {
        const w = chatWidgetOf(e);
        if (w) found.add(w);
      }
    }
  });
  // outermost only, and never the page itself
  return [...found].filter((e) => !holdsPage(e) && ![...found].some((o) => o !== e && within(e, o)));
}

function within(el: El, root: El): boolean {
  for (let e: El | null = el; e; e = e.parentElement) if (e === root) return true;
  return false;
}

/** Removes the page's overlays, in place. */
export function stripOverlays(root: El): void {
  for (const el of overlaysIn(root)) el.remove();
}
