// Query parameters: declared once as TypeBox schemas, which both validate (with the parameter named in
// the error) and describe the parameters in OpenAPI. Elysia's own query validation is not used here
// because its errors on coerced integers do not say which parameter failed.
import { type Static, type TObject, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Problem } from "../contract/problem.ts";

export interface QuerySpec<P extends TProperties> {
  schema: TObject<P>;
  parse(url: string): Static<TObject<P>>;
  parameters: Record<string, unknown>[];
}

/** The allowed values of a union of string literals (how enums are declared), if it is one. */
function literals(s: TSchema): string[] | undefined {
  const any = s.anyOf as TSchema[] | undefined;
  return any?.every((x) => typeof x.const === "string") ? any.map((x) => x.const as string) : undefined;
}

function baseType(s: TSchema): string | undefined {
  return (s.type as string | undefined) ?? (literals(s) ? "string" : undefined);
}

/** Parsed queries kept per spec, by query string: clients repeat theirs, and parsing is a good part of a
 * cached read's cost. A query that fails is not kept (it throws each time). */
const MAX_PARSED = 1000;

export function querySpec<P extends TProperties>(props: P): QuerySpec<P> {
  const schema = Type.Object(props);
  const parsed = new Map<string, Static<TObject<P>>>();
  /** The parameters of a URL. The result is shared between requests with the same query: frozen. */
  const parse = (url: string): Static<TObject<P>> => {
    const qs = url.indexOf("?");
    const search = qs < 0 ? "" : url.slice(qs + 1);
    let out = parsed.get(search);
    if (out === undefined) {
      out = Object.freeze(parseSearch(search)) as Static<TObject<P>>;
      if (parsed.size >= MAX_PARSED) parsed.clear();
      parsed.set(search, out);
    }
    return out;
  };
  const parseSearch = (qs: string) => {
    const out: Record<string, unknown> = {};
    if (qs === "") return out as Static<TObject<P>>;
    const search = new URLSearchParams(qs);
    for (const [name, prop] of Object.entries(props)) {
      const raw = search.get(name);
      if (raw === null) continue;
      const type = baseType(prop);
      let value: unknown = raw;
      if (type === "integer" || type === "number") {
        const ok =
          type === "integer"
            ? /^[+-]?\d{1,16}$/.test(raw.trim())
            : raw.trim() !== "" && Number.isFinite(Number(raw));
        if (!ok)
          throw new Problem(
            "invalid_request",
            `Query parameter ${name} must be ${type === "integer" ? "an integer" : "a number"}.`,
          );
        value = Number(raw);
      }
      if (!Value.Check(prop, value)) {
        const first = Value.Errors(prop, value).First();
        const why = describe(prop, first?.message);
        throw new Problem("invalid_request", `Query parameter ${name} ${why}.`);
      }
      out[name] = value;
    }
    return out as Static<TObject<P>>;
  };
  const parameters = Object.entries(props).map(([name, prop]) => {
    const { description, ...rest } = prop as TSchema & { description?: string };
    const values = literals(prop);
    const s = values ? { type: "string", enum: values } : JSON.parse(JSON.stringify(rest));
    return { name, in: "query", required: false, ...(description ? { description } : {}), schema: s };
  });
  return { schema, parse, parameters };
}

function describe(prop: TSchema, fallback?: string): string {
  const values = literals(prop) ?? (prop.enum as string[] | undefined);
  if (values) return `must be one of ${values.join(", ")}`;
  if (prop.minimum !== undefined && prop.maximum !== undefined)
    return `must be between ${prop.minimum} and ${prop.maximum}`;
  if (prop.minimum !== undefined) return `must be at least ${prop.minimum}`;
  if (prop.maxLength !== undefined) return `must be at most ${prop.maxLength} characters`;
  return `is not valid${fallback ? ` (${fallback.toLowerCase()})` : ""}`;
}
