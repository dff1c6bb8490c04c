// The one rule for which hosts are public internet hosts: the validators of every address a tenant supplies
// (competitor and page URLs, team-chat webhooks) and the fetcher's address guard (engine/fetch/guard.ts)
// all ask it. A name is judged without its trailing dots ("localhost." is localhost), an IPv4-mapped IPv6
// address as the IPv4 address it carries; the WHATWG URL parser has already turned numeric forms
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
  let a = ipaddr.parse(address);
  if (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return a.range() === "unicast";
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
