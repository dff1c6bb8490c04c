// The address guard of every outbound request (docs/engine/fetch.md): only public unicast addresses
// may be connected to. The host's form is judged by the one hostname rule (domain/hostname.ts), then
// every address its name resolves to; an IPv6 address that carries an IPv4 address (IPv4-compatible ::/96,
// mapped ::ffff:0:0/96, NAT64 64:ff9b::/96) is judged as that IPv4 address; 6to4, Teredo, local-use NAT64
// and every other special range are refused. A refusal tells
// the caller only that the address is not allowed: where a name resolves, or whether it resolves at all,
// goes to the server log.
import { lookup } from "node:dns/promises";
import ipaddr from "ipaddr.js";
import {
  hostRefusal,
  isIpLiteral,
  isPublicAddress,
  judgedAddress,
  notAllowedMessage,
} from "../../domain/hostname.ts";

export { isIpLiteral, isPublicAddress } from "../../domain/hostname.ts";

/** Resolves a host name to every address it has (A and AAAA). */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => {
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
};

/** The URL's host name without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

export function isLoopbackHost(host: string): boolean {
  if (host.toLowerCase() === "localhost") return true;
  if (!ipaddr.isValid(host)) return false;
  return judgedAddress(ipaddr.parse(host)).range() === "loopback";
}

/** A refused address. `message` is safe to show anyone; `detail` is for the server log only. */
export class BlockedAddressError extends Error {
  constructor(
    host: string,
    readonly detail: string,
  ) {
    super(notAllowedMessage(host));
  }
}

/** The addresses a connection to `host` may use: all of them public (one non-public answer refuses the
 * host: a name that points anywhere private is not fetched). IPv4 first. Throws BlockedAddressError, also
 * for a name that does not resolve (so a refusal never tells an internal name from a missing one). */
export async function publicAddresses(host: string, resolve: Resolver): Promise<string[]> {
  const refused = hostRefusal(host);
  if (refused) throw new BlockedAddressError(host, `${host} ${refused}`);
  if (isIpLiteral(host)) return [host];
  let found: string[];
  try {
    found = await resolve(host);
  } catch (e) {
    throw new BlockedAddressError(host, `${host} does not resolve: ${(e as Error)?.message ?? e}`);
  }
  if (found.length === 0) throw new BlockedAddressError(host, `${host} does not resolve`);
  const bad = found.find((a) => !isPublicAddress(a));
  if (bad) throw new BlockedAddressError(host, `${host} resolves to ${bad}, not a public address`);
  return [...found.filter((a) => !a.includes(":")), ...found.filter((a) => a.includes(":"))];
}
