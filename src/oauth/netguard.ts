// Which addresses the server may fetch a client metadata document from: only public unicast
// addresses, unless an operator's allow-list names the host (docs/oauth.md, "Client ID metadata documents").
import { lookup } from "node:dns/promises";
import { isIP } from "node:net";

function v4ToInt(a: string): number {
  return a.split(".").reduce((n, part) => (n << 8) + Number(part), 0) >>> 0;
}

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8], // private
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8], // loopback
  ["169.254.0.0", 16], // link-local (cloud metadata services live here)
  ["172.16.0.0", 12], // private
  ["192.0.0.0", 24], // IETF protocol assignments
  ["192.0.2.0", 24], // documentation
  ["192.88.99.0", 24], // 6to4 relay anycast
  ["192.168.0.0", 16], // private
  ["198.18.0.0", 15], // benchmarking
  ["198.51.100.0", 24], // documentation
  ["203.0.113.0", 24], // documentation
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];

function v4Blocked(a: string): boolean {
  const n = v4ToInt(a);
  return V4_BLOCKED.some(([net, bits]) => {
    const mask = bits === 0 ? 0 : (~0 << (32 - bits)) >>> 0;
    return (n & mask) >>> 0 === (v4ToInt(net) & mask) >>> 0;
  });
}

/** The 8 16-bit groups of an IPv6 address (with an embedded dotted IPv4 tail expanded). */
function v6Groups(a: string): number[] {
  let s = a.toLowerCase();
  const zone = s.indexOf("%");
  if (zone >= 0) s = s.slice(0, zone);
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (tail) {
    const n = v4ToInt(tail[1]);
    s = `${s.slice(0, -tail[1].length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, rest] = s.includes("::") ? s.split("::") : [s, undefined];
  const h = head ? head.split(":").map((x) => Number.parseInt(x, 16)) : [];
  if (rest === undefined) return h;
  const r = rest ? rest.split(":").map((x) => Number.parseInt(x, 16)) : [];
  return [...h, ...new Array(8 - h.length - r.length).fill(0), ...r];
}

function v6Blocked(a: string): boolean {
  const g = v6Groups(a);
  if (g.length !== 8 || g.some((x) => Number.isNaN(x))) return true;
  const embeddedV4 = () => `${g[6] >> 8}.${g[6] & 255}.${g[7] >> 8}.${g[7] & 255}`;
  if (g.every((x) => x === 0)) return true; // unspecified
  if (g.slice(0, 7).every((x) => x === 0) && g[7] === 1) return true; // loopback
  if (g.slice(0, 5).every((x) => x === 0) && g[5] === 0xffff) return v4Blocked(embeddedV4()); // v4-mapped
  if (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0)) return v4Blocked(embeddedV4()); // NAT64
  if ((g[0] & 0xfe00) === 0xfc00) return true; // unique local
  if ((g[0] & 0xffc0) === 0xfe80) return true; // link-local
  if ((g[0] & 0xff00) === 0xff00) return true; // multicast
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return true; // discard-only
  if (g[0] === 0x2002) return v4Blocked(`${g[1] >> 8}.${g[1] & 255}.${g[2] >> 8}.${g[2] & 255}`); // 6to4
  return false;
}

/** True for addresses a server must not be made to fetch from: private, loopback, link-local,
 * multicast, reserved and documentation ranges of IPv4 and IPv6. */
export function isNonPublicAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) return v4Blocked(address);
  if (v === 6) return v6Blocked(address);
  return true;
}

export function isLoopbackAddress(address: string): boolean {
  const v = isIP(address);
  if (v === 4) return address.startsWith("127.");
  if (v === 6) {
    const g = v6Groups(address);
    return g.length === 8 && g.slice(0, 7).every((x) => x === 0) && g[7] === 1;
  }
  return false;
}

/** The URL's host without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** Every address the host resolves to (an IP literal resolves to itself). */
export async function resolveHost(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const found = await lookup(host, { all: true, verbatim: true });
  return found.map((a) => a.address);
}
