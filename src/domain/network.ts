// A client's network, the unit per-visitor limits count in: an IPv4 address is one network, an IPv6 address
// counts by its /64 (one subscriber's prefix: a host picks any of its 2^64 addresses at will).
import ipaddr from "ipaddr.js";

/** `203.0.113.7` → `203.0.113.7`; `2001:db8:1:2:aa::1` → `2001:db8:1:2::/64`; an IPv4-mapped IPv6 address
 * as its IPv4 address; anything else as given. */
export function clientNetwork(address: string): string {
  const a = address
    .trim()
    .replace(/^\[(.*)\]$/, "$1")
    .replace(/%.*$/, "");
  if (!ipaddr.isValid(a)) return address;
  let ip = ipaddr.parse(a);
  if (ip.kind() === "ipv6" && (ip as ipaddr.IPv6).isIPv4MappedAddress())
    ip = (ip as ipaddr.IPv6).toIPv4Address();
  if (ip.kind() === "ipv4") return ip.toString();
  const parts = (ip as ipaddr.IPv6).parts.slice(0, 4);
  return `${ipaddr.IPv6.parse(`${parts.map((p) => p.toString(16)).join(":")}::`).toString()}/64`;
}
