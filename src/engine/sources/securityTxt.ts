/**
 * `/.well-known/security.txt` (RFC 9116). Pure; anything that is not a security.txt gives null.
 */
export interface SecurityTxt {
  /** `mailto:`, `https:` or `tel:` URIs, in file order (required by the RFC). */
  contact: string[];
  /** ISO 8601. */
  expires?: string;
  encryption: string[];
  acknowledgments: string[];
  /** Language tags, e.g. ["en", "de"]. */
  preferred_languages: string[];
  canonical: string[];
  policy: string[];
  hiring: string[];
  csaf: string[];
  /** The file is an OpenPGP cleartext-signed message. */
  signed: boolean;
}

const MAX_BYTES = 64 * 1024;
const LIST_FIELDS = [
  "contact",
  "encryption",
  "acknowledgments",
  "canonical",
  "policy",
  "hiring",
  "csaf",
] as const;
type ListField = (typeof LIST_FIELDS)[number];

/** The fields of a security.txt; null when the text has no RFC 9116 field (an HTML page, a 404 body …). */
export function parseSecurityTxt(text: string): SecurityTxt | null {
  if (typeof text !== "string") return null;
  let body = text.replace(/^\uFEFF/, "");
  if (body.length > MAX_BYTES) body = body.slice(0, MAX_BYTES);
  if (/^\s*</.test(body)) return null; // HTML served in its place
  const signed = /-----BEGIN PGP SIGNED MESSAGE-----/.test(body);
  if (signed) body = unwrapSigned(body);
  const out: SecurityTxt = {
    contact: [],
    encryption: [],
    acknowledgments: [],
    preferred_languages: [],
    canonical: [],
    policy: [],
    hiring: [],
    csaf: [],
    signed,
  };
  let fields = 0;
  for (const rawLine of body.split(/\r\n|\r|\n/)) {
    const line = rawLine.trim();
    if (!line || line.startsWith("#")) continue;
    const m = /^([A-Za-z][A-Za-z-]*)\s*:\s*(.+)$/.exec(line);
    if (!m) continue;
    const name = m[1].toLowerCase();
    const value = m[2].trim();
    if (!value) continue;
    if (name === "expires") {
      const t = Date.parse(value);
      if (!out.expires && !Number.isNaN(t)) out.expires = new Date(t).toISOString();
      fields++;
    } else if (name === "preferred-languages") {
      for (const tag of value.split(",")) {
        const t = tag.trim();
        if (/^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/.test(t) && !out.preferred_languages.includes(t))
          out.preferred_languages.push(t);
      }
      fields++;
    } else if (
      (LIST_FIELDS as readonly string[]).includes(name === "acknowledgements" ? "acknowledgments" : name)
    ) {
      const key = (name === "acknowledgements" ? "acknowledgments" : name) as ListField;
      // Many real files write a bare address ("Contact: security@x.com"): it means the mailto: URI.
      const uri =
        key === "contact" && /^[^\s@:/]+@[^\s@/]+\.[^\s@/]+$/.test(value) ? `mailto:${value}` : value;
      if (!isUri(uri)) continue;
      if (out[key].length < 20 && !out[key].includes(uri)) out[key].push(uri);
      fields++;
    }
  }
  return fields > 0 ? out : null;
}

function isUri(value: string): boolean {
  if (/\s/.test(value) || value.length > 2048) return false;
  return /^(?:https?:\/\/[^\s]+|mailto:[^\s@]+@[^\s@]+|tel:\+?[0-9 ().-]+|dns:[^\s]+|openpgp4fpr:[0-9a-f]+)$/i.test(
    value,
  );
}

/** The signed text of a cleartext-signed message: hash headers and signature dropped, dash-escapes undone. */
function unwrapSigned(body: string): string {
  const start = body.indexOf("-----BEGIN PGP SIGNED MESSAGE-----");
  const end = body.indexOf("-----BEGIN PGP SIGNATURE-----");
  let inner = body.slice(start, end >= 0 ? end : undefined);
  const lines = inner.split(/\r\n|\r|\n/).slice(1);
  // Armor headers ("Hash: SHA256") run until the first empty line.
  let i = 0;
  while (i < lines.length && lines[i].trim() !== "") i++;
  inner = lines
    .slice(i + 1)
    .map((l) => (l.startsWith("- ") ? l.slice(2) : l))
    .join("\n");
  return inner;
}
