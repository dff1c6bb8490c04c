// Whether an SVG icon is harmless to show: parsed as XML (htmlparser2 in XML mode), UTF-8 only, and made of
// static drawing alone: every element and attribute on an allow-list, references only to the file's own ids.
// A browser decides an SVG's encoding and namespaces by its own XML rules, so anything this check could read
// differently (another encoding, a namespace prefix, a doctype with entities) is refused rather than guessed.
import { Parser } from "htmlparser2";

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";

/** Static drawing: shapes, text, grouping, paint servers, clipping, masks and filters; a style sheet of rules
 * and an embedded bitmap, both checked below. No script, animation, link, foreignObject or use of anything
 * outside the file. */
const ELEMENTS = new Set(
  [
    "svg g defs title desc symbol use switch style image",
    "path rect circle ellipse line polyline polygon text tspan textPath",
    "linearGradient radialGradient stop pattern clipPath mask marker",
    "filter feBlend feColorMatrix feComponentTransfer feComposite feConvolveMatrix feDiffuseLighting",
    "feDisplacementMap feDistantLight feDropShadow feFlood feFuncA feFuncB feFuncG feFuncR feGaussianBlur",
    "feMerge feMergeNode feMorphology feOffset fePointLight feSpecularLighting feSpotLight feTile feTurbulence",
  ]
    .join(" ")
    .split(" "),
);

/** Geometry, presentation and text attributes; `id`, `class` and `style` (checked below). No event handler,
 * no `xml:base`, no namespace but SVG's and XLink's. */
const ATTRIBUTES = new Set(
  [
    "xmlns xmlns:xlink version baseProfile id class style lang xml:space xml:lang width height x y x1 y1 x2 y2",
    "cx cy r rx ry fx fy fr d points pathLength viewBox preserveAspectRatio transform dx dy rotate",
    "textLength lengthAdjust startOffset method spacing side refX refY markerWidth markerHeight markerUnits",
    "orient href xlink:href gradientUnits gradientTransform spreadMethod offset stop-color stop-opacity",
    "patternUnits patternContentUnits patternTransform clipPathUnits maskUnits maskContentUnits filterUnits",
    "primitiveUnits in in2 result mode type values operator k1 k2 k3 k4 stdDeviation edgeMode order kernelMatrix",
    "divisor bias targetX targetY preserveAlpha surfaceScale diffuseConstant specularConstant specularExponent",
    "kernelUnitLength azimuth elevation z pointsAtX pointsAtY pointsAtZ limitingConeAngle scale xChannelSelector",
    "yChannelSelector radius tableValues slope intercept amplitude exponent baseFrequency numOctaves seed",
    "stitchTiles flood-color flood-opacity lighting-color fill fill-opacity fill-rule stroke stroke-width",
    "stroke-opacity stroke-linecap stroke-linejoin stroke-miterlimit stroke-dasharray stroke-dashoffset opacity",
    "color clip-path clip-rule mask filter marker-start marker-mid marker-end display visibility overflow",
    "font-family font-size font-style font-weight font-variant font-stretch text-anchor dominant-baseline",
    "alignment-baseline baseline-shift letter-spacing word-spacing text-decoration writing-mode direction",
    "paint-order vector-effect shape-rendering text-rendering image-rendering color-interpolation",
    "color-interpolation-filters isolation mix-blend-mode transform-origin transform-box",
    "requiredFeatures requiredExtensions systemLanguage enable-background media",
  ]
    .join(" ")
    .split(" "),
);

/** A bitmap inside the file: the image formats a browser shows without running anything. */
const EMBEDDED_BITMAP = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]+$/;

/** Style text (a `style` attribute or element): `url(…)` may only name an id of this file, and nothing that
 * loads, binds or runs (imports, expressions, bindings, CSS escapes that could spell any of them). */
function harmlessCss(value: string): boolean {
  const v = value.toLowerCase();
  if (/javascript:|data:|expression\s*\(|@import|-moz-binding|behavior\s*:|\\|</.test(v)) return false;
  const urls = v.match(/url\s*\(/g)?.length ?? 0;
  return urls === [...v.matchAll(/url\s*\(\s*(['"]?)#[\w.:-]+\1\s*\)/g)].length;
}

function harmlessValue(element: string, name: string, value: string): boolean {
  if (name === "href" || name === "xlink:href")
    return element === "image" ? EMBEDDED_BITMAP.test(value.trim()) : /^#[\w.:-]+$/.test(value.trim());
  if (!harmlessCss(value)) return false;
  if (name === "xmlns") return value === SVG_NS;
  if (name === "xmlns:xlink") return value === XLINK_NS;
  return true;
}

/** The text of UTF-8 bytes, or undefined for any other encoding: a UTF-16 or UTF-32 byte order mark, NUL bytes
 * (UTF-16 without one), invalid UTF-8, or an XML declaration naming another encoding. */
function utf8Text(d: Uint8Array): string | undefined {
  if ((d[0] === 0xfe && d[1] === 0xff) || (d[0] === 0xff && d[1] === 0xfe)) return undefined;
  if (d.includes(0)) return undefined;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(d);
  } catch {
    return undefined;
  }
  const declared = /^<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']*)["']/i.exec(text.trimStart());
  if (declared && !/^utf-?8$/i.test(declared[1])) return undefined;
  return text;
}

/** True when the bytes are a UTF-8 SVG document made only of allowed elements and attributes. */
export function isHarmlessSvg(d: Uint8Array): boolean {
  const text = utf8Text(d);
  if (text === undefined) return false;
  let ok = true;
  let depth = 0;
  let roots = 0;
  let inStyle = 0;
  const refuse = () => {
    ok = false;
  };
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (!ok) return;
        if (depth === 0 && (++roots > 1 || name !== "svg")) return refuse();
        depth++;
        if (!ELEMENTS.has(name)) return refuse();
        for (const [k, v] of Object.entries(attributes))
          if (!ATTRIBUTES.has(k) || !harmlessValue(name, k, v)) return refuse();
        if (name === "style") inStyle++;
      },
      onclosetag(name) {
        depth--;
        if (name === "style") inStyle--;
      },
      ontext(data) {
        // Text outside the root element, or an entity reference (only the five predefined ones are read).
        if (depth === 0 && data.trim() !== "") refuse();
        if (/&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[\da-f]+);)/i.test(data)) refuse();
        if (inStyle > 0 && !harmlessCss(data)) refuse();
      },
      onprocessinginstruction(name, data) {
        // Before the root: the XML declaration, and a doctype that declares nothing (no internal subset, so no
        // entities; browsers never load an external one). No style sheet instruction.
        if (depth > 0 || roots > 0) return refuse();
        if (name.toLowerCase() === "?xml" && /^\?xml(\s|$)/.test(data)) return;
        if (name.toLowerCase() === "!doctype" && /^!doctype\s+svg\b[^[]*$/i.test(data)) return;
        refuse();
      },
    },
    { xmlMode: true, decodeEntities: false, recognizeCDATA: true },
  );
  parser.end(text.replace(/^\ufeff/, ""));
  return ok && roots === 1 && depth === 0;
}
