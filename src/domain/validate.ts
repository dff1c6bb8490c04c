// Field checks shared by the importer, the CLI and the tools. Each throws InvalidInput naming the field.

export class InvalidInput extends Error {
  constructor(
    message: string,
    public field?: string,
  ) {
    super(message);
  }
}

const ISO =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** Parses an ISO 8601 date or date-time (no offset means UTC) to a normalized UTC string, or null. */
export function parseTimestamp(value: string): string | null {
  const m = ISO.exec(value);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (mo < 1 || mo > 12 || d < 1 || d > new Date(Date.UTC(y, mo, 0)).getUTCDate()) return null;
  if (m[4] !== undefined && (Number(m[4]) > 23 || Number(m[5]) > 59 || Number(m[6] ?? 0) > 59)) return null;
  let s = value.replace(" ", "T");
  if (m[4] === undefined) s += "T00:00:00Z";
  else if (m[7] === undefined) s += "Z";
  else if (/^[+-]\d{2}$/.test(m[7])) s += ":00";
  else if (/^[+-]\d{4}$/.test(m[7])) s = `${s.slice(0, -2)}:${s.slice(-2)}`;
  const t = Date.parse(s);
  return Number.isNaN(t) ? null : new Date(t).toISOString();
}

type Obj = Record<string, unknown>;

export function isObject(v: unknown): v is Obj {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

export function str(o: Obj, f: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
  const v = o[f];
  if (v === undefined || v === null) {
    if (opts.required) throw new InvalidInput(`${f} is required`, f);
    return undefined;
  }
  if (typeof v !== "string") throw new InvalidInput(`${f} must be a string`, f);
  const t = v.trim();
  if (opts.required && t === "") throw new InvalidInput(`${f} must not be empty`, f);
  if (opts.max !== undefined && t.length > opts.max)
    throw new InvalidInput(`${f} is longer than ${opts.max}`, f);
  return t === "" ? undefined : t;
}

export function int(o: Obj, f: string, opts: { min?: number; max?: number } = {}): number | undefined {
  const v = o[f];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v)) throw new InvalidInput(`${f} must be an integer`, f);
  if (opts.min !== undefined && v < opts.min) throw new InvalidInput(`${f} must be at least ${opts.min}`, f);
  if (opts.max !== undefined && v > opts.max) throw new InvalidInput(`${f} must be at most ${opts.max}`, f);
  return v;
}

export function num(o: Obj, f: string): number | undefined {
  const v = o[f];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isFinite(v)) throw new InvalidInput(`${f} must be a number`, f);
  return v;
}

export function bool(o: Obj, f: string): boolean | undefined {
  const v = o[f];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw new InvalidInput(`${f} must be true or false`, f);
  return v;
}

export function ts(o: Obj, f: string): string | undefined {
  const v = str(o, f);
  if (v === undefined) return undefined;
  const t = parseTimestamp(v);
  if (t === null) throw new InvalidInput(`${f} must be an ISO 8601 time`, f);
  return t;
}

export function oneOf<T extends string>(
  o: Obj,
  f: string,
  values: readonly T[],
  fallback?: T,
): T | undefined {
  const v = str(o, f);
  if (v === undefined) return fallback;
  if (!(values as readonly string[]).includes(v))
    throw new InvalidInput(`${f} must be one of ${values.join(", ")}`, f);
  return v as T;
}

export function httpUrl(o: Obj, f: string): string | undefined {
  const v = str(o, f, { max: 2048 });
  if (v === undefined) return undefined;
  return checkUrl(v, f);
}

export function checkUrl(v: string, f: string): string {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new InvalidInput(`${f} must be an absolute http(s) URL`, f);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new InvalidInput(`${f} must be an http(s) URL`, f);
  return u.href;
}

export function obj(o: Obj, f: string): Obj | undefined {
  const v = o[f];
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw new InvalidInput(`${f} must be an object`, f);
  return v;
}

export function arr(o: Obj, f: string, maxItems?: number): unknown[] | undefined {
  const v = o[f];
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v)) throw new InvalidInput(`${f} must be an array`, f);
  if (maxItems !== undefined && v.length > maxItems)
    throw new InvalidInput(`${f} has more than ${maxItems} items`, f);
  return v;
}

export function strings(
  o: Obj,
  f: string,
  limits: { maxItems?: number; max?: number } = {},
): string[] | undefined {
  const a = arr(o, f, limits.maxItems);
  if (a === undefined) return undefined;
  return a.map((x, i) => {
    if (typeof x !== "string") throw new InvalidInput(`${f}[${i}] must be a string`, f);
    const t = x.trim();
    if (limits.max !== undefined && t.length > limits.max)
      throw new InvalidInput(`${f}[${i}] is longer than ${limits.max}`, f);
    return t;
  });
}

export function onlyKeys(o: Obj, allowed: readonly string[], where: string): void {
  for (const k of Object.keys(o)) {
    if (!allowed.includes(k)) throw new InvalidInput(`unknown field ${JSON.stringify(k)} in ${where}`, k);
  }
}

/** Removes blank values (null, "", [], {}) recursively; keeps false and 0. */
export function prune(v: unknown): unknown {
  if (v === null || v === undefined) return undefined;
  if (typeof v === "string") return v.trim() === "" ? undefined : v;
  if (Array.isArray(v)) {
    const a = v.map(prune).filter((x) => x !== undefined);
    return a.length ? a : undefined;
  }
  if (isObject(v)) {
    const out: Obj = {};
    for (const [k, x] of Object.entries(v)) {
      const p = prune(x);
      if (p !== undefined) out[k] = p;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

/** Builds an object in the given key order, leaving out blank values. */
export function compact(fields: [string, unknown][]): Obj {
  const out: Obj = {};
  for (const [k, v] of fields) {
    const p = prune(v);
    if (p !== undefined) out[k] = p;
  }
  return out;
}
