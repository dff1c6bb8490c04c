// The site's /.well-known/security.txt (RFC 9116): its fields, compared one by one, read by the rules as the
// security page's.
import { normaliseStructured } from "../../compare/normalise.ts";
import { parseSecurityTxt, type SecurityTxt } from "../securityTxt.ts";
import { get, type SourceKind } from "./kind.ts";

export type SecurityTxtFound = { url: string; txt: SecurityTxt } | undefined;

export const securityTxt: SourceKind<SecurityTxtFound, "security_txt"> = {
  name: "security_txt",
  fetch: get,
  parse(read, url) {
    const sec = parseSecurityTxt(read.text);
    return sec
      ? { snapshot: normaliseStructured(url, sec as unknown as Record<string, unknown>) }
      : { error: "unsupported_content" };
  },
  snapshot: "structured",
  classifyAs: () => ({ pageKind: "security" }),
  label: () => "security.txt",
  discovery: {
    async read(s, io) {
      const url = new URL("/.well-known/security.txt", s.site).href;
      const r = await io.get(url);
      const txt = (r.ok && parseSecurityTxt(r.text)) || undefined;
      return txt ? { url, txt } : undefined;
    },
    sources: (found) => (found ? [{ url: found.url, kind: "security_txt" }] : []),
  },
};
