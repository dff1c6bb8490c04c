// Small request/response helpers shared by the pages.
import { NotFoundError } from "elysia";

export { formatDay, formatTime } from "../domain/dates.ts";

/** A page or record that is not there: the error hook (src/http/errors.ts) answers HTML 404 to browsers and
 * the problem+json `not_found` to everything else. */
export function notFound(): never {
  throw new NotFoundError();
}

/** The first string value of a parsed form field ("" when absent). */
export function field(body: unknown, name: string): string {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  const first = Array.isArray(v) ? v[0] : v;
  return typeof first === "string" ? first : "";
}

/** Every string value of a repeated form field (checkboxes). */
export function fields(body: unknown, name: string): string[] {
  const v = (body as Record<string, unknown> | null | undefined)?.[name];
  const list = Array.isArray(v) ? v : v === undefined ? [] : [v];
  return list.filter((x): x is string => typeof x === "string");
}

/** 303 See Other: after a form POST, the browser GETs the new address. */
export function redirect(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

/** A plain decimal id of at most 15 digits, or undefined (`1e3`, `0x10`, ` 1` name no record). */
export function decimalId(v: string | null | undefined): number | undefined {
  return v && /^\d{1,15}$/.test(v) ? Number(v) : undefined;
}

/** A page number from a query value: an integer from 1, else 1. */
export function pageNumber(v: string | null): number {
  const n = decimalId(v);
  return n !== undefined && n >= 1 && n <= 1_000_000 ? n : 1;
}

/** True for an absolute http(s) URL: the only kind rendered as a link. */
export function isHttpUrl(v: unknown): v is string {
  if (typeof v !== "string") return false;
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}
