// Text from bytes: the charset of the Content-Type header, else a byte-order mark, else the document's own
// declaration (<meta charset>, <meta http-equiv="Content-Type">, <?xml encoding>), else UTF-8. Decoded with
// TextDecoder (WHATWG labels: "iso-8859-1" and "latin1" decode as windows-1252, as browsers do).

function decoderFor(label: string | undefined): TextDecoder | undefined {
  if (!label) return undefined;
  try {
    return new TextDecoder(label.trim().replace(/^["']|["']$/g, ""));
  } catch {
    return undefined;
  }
}

/** The charset parameter of a Content-Type value. */
export function headerCharset(contentType: string | null | undefined): string | undefined {
  const m = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(contentType ?? "");
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
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([^"']+)["']/i.exec(head);
  if (xml) return xml[1];
  for (const tag of head.match(/<meta\b[^>]*>/gi) ?? []) {
    const direct = /\bcharset\s*=\s*["']?\s*([^"'\s/>;]+)/i.exec(tag);
    if (direct && !/\bhttp-equiv\b/i.test(tag) && !/\bcontent\s*=/i.test(tag)) return direct[1];
    if (/\bhttp-equiv\s*=\s*["']?content-type/i.test(tag)) {
      const content = /\bcontent\s*=\s*(["'])(.*?)\1/i.exec(tag);
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
