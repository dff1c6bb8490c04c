// Text from bytes: the charset of the Content-Type header, else a byte-order mark, else the document's own
// declaration (<meta charset>, <meta http-equiv="Content-Type">, <?xml encoding>), else UTF-8. Decoded with
// TextDecoder (WHATWG labels: "iso-8859-1" and "latin1" decode as windows-1252, as browsers do).

// Module-level patterns: a regular expression literal in a function body is a new RegExp object on each call,
// and these run for every response.
const QUOTES = /^["']|["']$/g;
const HEADER_CHARSET = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i;
const XML_ENCODING = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i;
const META_TAG = /<meta\b[^>]*>/gi;
const META_CHARSET = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i;
const HTTP_EQUIV = /\bhttp-equiv\b/i;
const CONTENT_ATTRIBUTE = /\bcontent\s*=/i;
const CONTENT_TYPE_EQUIV = /\bhttp-equiv\s*=\s*["']?content-type/i;
const CONTENT_VALUE = /\bcontent\s*=\s*(["'])(.*?)\1/i;

function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim().replace(QUOTES, ""));
  } catch {
    return undefined;
  }
}

/** The charset parameter of a Content-Type value. */
export function headerCharset(contentType: string | null | undefined): string | undefined {
  const m = HEADER_CHARSET.exec(contentType ?? "");
  return m?.[2];
}

function bomCharset(bytes: Uint8Array): string | undefined {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return "utf-8";
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return "utf-16le";
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return "utf-16be";
  return undefined;
}

/** The charset a document declares in its first 4 KB (HTML meta, or an XML declaration). */
export function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = new TextDecoder("windows-1252").decode(bytes.subarray(0, 4096));
  const xml = XML_ENCODING.exec(head);
  if (xml) return xml[1];
  for (const tag of head.match(META_TAG) ?? []) {
    const direct = META_CHARSET.exec(tag);
    if (direct && !HTTP_EQUIV.test(tag) && !CONTENT_ATTRIBUTE.test(tag)) return direct[1];
    if (CONTENT_TYPE_EQUIV.test(tag)) {
      const content = CONTENT_VALUE.exec(tag);
      const cs = headerCharset(content?.[2]);
      if (cs) return cs;
    }
    if (direct) return direct[1];
  }
  return undefined;
}

/** The decoder of a body: header charset, then BOM, then the document's declaration, then UTF-8. A declared
 * UTF-16 inside an ASCII-compatible document is read as UTF-8 (HTML's rule). */
export function bodyDecoder(bytes: Uint8Array, contentType: string | null | undefined): TextDecoder {
  const fromHeader = decoderFor(headerCharset(contentType));
  const bom = bomCharset(bytes);
  if (bom) return new TextDecoder(bom);
  if (fromHeader) return fromHeader;
  let declared = decoderFor(declaredCharset(bytes));
  if (declared?.encoding.startsWith("utf-16")) declared = undefined;
  return declared ?? new TextDecoder("utf-8");
}

/** Decodes a body with its decoder (bodyDecoder). */
export function decodeBody(bytes: Uint8Array, contentType: string | null | undefined): string {
  return bodyDecoder(bytes, contentType).decode(bytes);
}
