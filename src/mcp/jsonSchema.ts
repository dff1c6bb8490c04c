// The one place a tool's zod shapes become the JSON Schema that tools/list carries. Every client reads the
// whole list into its context window, so what zod emits is cut to what a client needs:
// - no `$schema` (the protocol fixes the dialect) and no ±2^53−1 bounds zod adds to every .int();
// - an input schema keeps every constraint and description (clients build calls from it);
// - an output schema names the result's fields and their types, and for a list the fields of its items, with
//   the top level's required fields; deeper structure, descriptions and additionalProperties are left to
//   the tool's description and its result, which SDK clients still validate against this schema.
import { z } from "zod";

const SAFE = Number.MAX_SAFE_INTEGER;
/** Levels of properties an output schema keeps: the result's fields, then one level below them. */
const OUTPUT_DEPTH = 1;

type Schema = Record<string, unknown>;

export function inputJsonSchema(shape: z.ZodType): Schema {
  return compact(z.toJSONSchema(shape, { io: "input" }) as Schema, "input", 0);
}

export function outputJsonSchema(shape: z.ZodType): Schema {
  return compact(z.toJSONSchema(shape, { io: "output" }) as Schema, "output", 0);
}

function compact(s: Schema, kind: "input" | "output", depth: number): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "$schema") continue;
    if ((k === "minimum" && v === -SAFE) || (k === "maximum" && v === SAFE)) continue;
    // .int().positive(): "at least 1" reads plainer than "more than 0".
    if (k === "exclusiveMinimum" && v === 0 && s.type === "integer") {
      out.minimum = 1;
      continue;
    }
    if (k === "description" && v === "ISO 8601 date-time") {
      out.format = "date-time";
      if (kind === "output") continue;
    }
    if (kind === "input" && k === "additionalProperties" && v === false && depth > 0) continue;
    if (kind === "output") {
      if (k === "description" || k === "additionalProperties") continue;
      if (k === "required" && depth > 0) continue;
      if (k === "properties" && depth >= OUTPUT_DEPTH) continue;
    }
    if (k === "properties" && v && typeof v === "object") {
      out.properties = Object.fromEntries(
        Object.entries(v as Record<string, Schema>).map(([p, x]) => [p, compact(x, kind, depth + 1)]),
      );
    } else if ((k === "items" || k === "additionalProperties") && v && typeof v === "object") {
      out[k] = compact(v as Schema, kind, depth);
    } else if ((k === "anyOf" || k === "oneOf" || k === "allOf") && Array.isArray(v)) {
      out[k] = v.map((x) => compact(x as Schema, kind, depth));
    } else out[k] = v;
  }
  return out;
}
