// Query parameters: declared once as TypeBox schemas, which both validate (with the parameter named in
// the error) and describe the parameters in OpenAPI. Elysia's own query validation is not used here
// because its errors on coerced integers do not say which parameter failed.
import { type Static, type TObject, type TProperties, type TSchema, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { Problem } from "./problem.ts";

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

export function querySpec<P extends TProperties>(props: P): QuerySpec<P> {
  const schema = Type.Object(props);
  const parse = (url: string) => {
    const qs = url.indexOf("?");
    const out: Record<string, unknown> = {};
    if (qs < 0) return out as Static<TObject<P>>;
    const search = new URLSearchParams(url.slice(qs + 1));
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
