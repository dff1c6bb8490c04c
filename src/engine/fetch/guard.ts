// The address guard of every outbound request (docs/engine.md, "Fetch"): only public unicast addresses
// may be connected to. ipaddr.js classifies; an IPv4-mapped IPv6 address is judged as the IPv4 address it
// carries; NAT64 (64:ff9b::/96), 6to4, Teredo and every other special range are refused.
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

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

/** The URL's host name without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  let a = ipaddr.parse(host);
  if (a.kind() === "ipv6" && (a as ipaddr.IPv6).isIPv4MappedAddress()) a = (a as ipaddr.IPv6).toIPv4Address();
  return a.range() === "loopback";
}

export class BlockedAddressError extends Error {}

/** The addresses a connection to `host` may use: all of them public (one non-public answer refuses the
 * host: a name that points anywhere private is not fetched). IPv4 first. Throws BlockedAddressError. */
export async function publicAddresses(host: string, resolve: Resolver): Promise<string[]> {
  if (isIpLiteral(host)) {
    if (!isPublicAddress(host))
      throw new BlockedAddressError(`${host} is a private, loopback or reserved address`);
    return [host];
  }
  const found = await resolve(host);
  if (found.length === 0) throw new Error(`${host} does not resolve`);
  const bad = found.find((a) => !isPublicAddress(a));
  if (bad)
    throw new BlockedAddressError(`${host} resolves to a private, loopback or reserved address (${bad})`);
  return [...found.filter((a) => !a.includes(":")), ...found.filter((a) => a.includes(":"))];
}
