import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

const B62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

function base62(bytes: Uint8Array, width: number): string {
  let n = 0n;
  for (const b of bytes) n = (n << 8n) | BigInt(b);
  let s = "";
  while (n > 0n) {
    s = B62[Number(n % 62n)] + s;
    n /= 62n;
  }
  return s.padStart(width, "0");
}

function checksum(body: string): string {
  const crc = Bun.hash.crc32(body) >>> 0;
  const b = new Uint8Array(4);
  new DataView(b.buffer).setUint32(0, crc);
  return base62(b, 6);
}

export const API_KEY_PREFIX = "rvl_";
const API_KEY_RE = /^rvl_([0-9A-Za-z]{43})([0-9A-Za-z]{6})$/;

/** `rvl_` + 32 random bytes in base62 + a 6-character checksum. */
export function newApiKey(): string {
  const body = base62(randomBytes(32), 43);
  return `${API_KEY_PREFIX}${body}${checksum(body)}`;
}

/** True when the token has the key format and its checksum matches: refused without a lookup otherwise. */
export function isWellFormedApiKey(token: string): boolean {
  const m = API_KEY_RE.exec(token);
  return m !== null && checksum(m[1]) === m[2];
}

/** The part of a key shown in listings. */
export function keyPrefix(token: string): string {
  return token.slice(0, 12);
}

export function sha256(value: string): string {
  return createHash("sha256").update(value).digest("hex");
}

export function digestsEqual(a: string, b: string): boolean {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}

/** An opaque random secret (OAuth codes, tokens, sessions). */
export function randomSecret(prefix = ""): string {
  return prefix + randomBytes(32).toString("base64url");
}
