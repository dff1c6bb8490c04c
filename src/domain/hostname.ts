// The one rule for which hosts are public internet hosts: the validators of every address a tenant supplies
// (competitor and page URLs, team-chat webhooks) and the fetcher's address guard (engine/fetch/guard.ts)
// all ask it. A name is judged without its trailing dots ("localhost." is localhost), an IPv6 address that
// carries an IPv4 address (mapped, compatible, NAT64) as that IPv4 address; the WHATWG URL parser has already turned numeric forms
// ("0x7f.1", "2130706433") into dotted IPv4.
import ipaddr from "ipaddr.js";

/** Names that never reach the public internet: RFC 6761/6762/8375 special-use names and the suffixes
 * private networks use by convention. */
const PRIVATE_SUFFIXES = [
  "localhost",
  "local",
  "localdomain",
  "internal",
  "intranet",
  "lan",
  "home",
  "corp",
  "private",
  "home.arpa",
  "arpa",
  "invalid",
  "onion",
  "alt",
];
const PRIVATE_NAME = new RegExp(`(^|\\.)(${PRIVATE_SUFFIXES.map((s) => s.replace(".", "\\.")).join("|")})$`);

/** The host as it is judged: lower case, without IPv6 brackets, zone or trailing dots. */
export function normaliseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/\.+$/, "");
}

/** True when the string is an IPv4 or IPv6 address (IPv6 without brackets, zone allowed). */
export function isIpLiteral(host: string): boolean {
  return ipaddr.isValid(host.replace(/%.*$/, ""));
}

/** True only for public unicast addresses: what a server may be made to connect to. Anything that is not
 * an address (or carries an IPv6 zone) is not public. */
export function isPublicAddress(address: string): boolean {
  if (address.includes("%") || !ipaddr.isValid(address)) return false;
  // ipaddr.isValid accepts legacy forms ("127.1", "0x7f.1"); only the canonical four-part form is an address here.
  if (!address.includes(":") && !ipaddr.IPv4.isValidFourPartDecimal(address)) return false;
  return judgedAddress(ipaddr.parse(address)).range() === "unicast";
}

/** The address a connection to `a` reaches, for judging it: the IPv4 address inside an IPv6 address that
 * carries one in its last 32 bits (IPv4-compatible ::/96 such as `::7f00:1`, IPv4-mapped ::ffff:0:0/96,
 * NAT64 64:ff9b::/96), else `a` itself. 6to4, Teredo and the other translation ranges are special ranges
 * of their own and stay refused whatever they carry. */
export function judgedAddress(a: ipaddr.IPv4 | ipaddr.IPv6): ipaddr.IPv4 | ipaddr.IPv6 {
  if (a.kind() === "ipv4") return a;
  const v6 = a as ipaddr.IPv6;
  const range = v6.range();
  if (range === "loopback" || range === "unspecified") return v6;
  const p = v6.parts;
  const zero = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  const carries =
    (zero(0, 5) && (p[5] === 0 || p[5] === 0xffff)) || (p[0] === 0x64 && p[1] === 0xff9b && zero(2, 6));
  return carries ? new ipaddr.IPv4([p[6] >> 8, p[6] & 0xff, p[7] >> 8, p[7] & 0xff]) : v6;
}

/** Why a host is not a public internet host by its form alone, or undefined when it may be one (a name
 * still has to resolve to public addresses when it is fetched). The reason names nothing but the host. */
export function hostRefusal(rawHost: string): string | undefined {
  const host = normaliseHost(rawHost);
  if (!host) return "has no host name";
  if (isIpLiteral(host)) return isPublicAddress(host) ? undefined : "is not a public internet address";
  if (!host.includes(".") || PRIVATE_NAME.test(host)) return "is not a public internet host name";
  return undefined;
}

/** The message every refused address gets, whatever the refusal was (a private name, a private or
 * unresolvable address): a tenant learns that the address is not allowed, nothing about the network. */
export function notAllowedMessage(host: string): string {
  return `${normaliseHost(host) || host} is not allowed: only public internet addresses are fetched`;
}
