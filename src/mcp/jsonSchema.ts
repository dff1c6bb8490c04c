// The one place a tool's zod shapes become the JSON Schema that tools/list carries. Every client reads the
// whole list into its context window, so what zod emits is cut to what a client needs:
// - no `$schema` (the protocol fixes the dialect) and no ±2^53−1 bounds zod adds to every .int();
// - an input schema keeps every constraint and description (clients build calls from it); a part it repeats
//   (the same rules for several channels) is written once under `$defs` and referred to — a tool's schema is
//   self-contained, so that is as far as sharing goes;
// - an output schema names the result's fields and their types, and for a list the fields of its items, with
//   the top level's required fields; deeper structure, descriptions and additionalProperties are left to
//   the tool's description and its result, which SDK clients still validate against this schema.
import { z } from "zod";

const SAFE = Number.MAX_SAFE_INTEGER;
/** Levels of properties an output schema keeps: the result's fields, then one level below them. */
const OUTPUT_DEPTH = 1;
/** From this length on, a string argument's maxLength is left out of its schema. */
const LONG = 100;

type Schema = Record<string, unknown>;

export function inputJsonSchema(shape: z.ZodType): Schema {
  const s = shared(compact(z.toJSONSchema(shape, { io: "input" }) as Schema, "input", 0));
  // A tool without arguments: `{type: "object"}` says it.
  if (s.properties && Object.keys(s.properties).length === 0) delete s.properties;
  return s;
}

export function outputJsonSchema(shape: z.ZodType): Schema {
  return compact(z.toJSONSchema(shape, { io: "output" }) as Schema, "output", 0);
}

function compact(s: Schema, kind: "input" | "output", depth: number): Schema {
  const out: Schema = {};
  for (const [k, v] of Object.entries(s)) {
    if (k === "$schema") continue;
    if ((k === "minimum" && v === -SAFE) || (k === "maximum" && v === SAFE)) continue;
    // .int().positive() is an id's: the id comes from another tool's result, so its bound tells a client
    // nothing (the server refuses 0 naming the tool that lists valid ids). A count's .min(1) stays.
    if (k === "exclusiveMinimum" && v === 0 && s.type === "integer") continue;
    // The format says it: an ISO 8601 date-time.
    if (k === "description" && v === "ISO 8601 date-time") {
      if (kind === "input") out.format = "date-time";
      continue;
    }
    // The server refuses an argument a tool does not take, naming the ones it does, and an empty string,
    // saying so: neither needs saying in every schema.
    if (kind === "input" && k === "additionalProperties" && v === false) continue;
    if (kind === "input" && k === "minLength" && v === 1) continue;
    // A generous length bound (notes, URLs, names, keys) is the server's to enforce: it names the bound.
    if (kind === "input" && k === "maxLength" && typeof v === "number" && v >= LONG) continue;
    if (kind === "output") {
      if (k === "description" || k === "additionalProperties") continue;
      // An array's name says what it holds (get_… tools give records whole); only a closed set of values
      // is worth listing.
      if (k === "items" && !(v as Schema)?.enum) continue;
      if (k === "required") continue;
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

/** Below this size a repeated part costs less written out than referred to. */
const SHARE_MIN = 120;

/** The subschemas of a schema (the only places a `$ref` may stand): its properties' schemas, items,
 * additionalProperties and the members of anyOf / oneOf / allOf. */
function children(s: Schema, map: (child: Schema) => Schema): Schema {
  const out: Schema = { ...s };
  if (s.properties && typeof s.properties === "object")
    out.properties = Object.fromEntries(
      Object.entries(s.properties as Record<string, Schema>).map(([k, x]) => [k, map(x)]),
    );
  for (const k of ["items", "additionalProperties"])
    if (s[k] && typeof s[k] === "object" && !Array.isArray(s[k])) out[k] = map(s[k] as Schema);
  for (const k of ["anyOf", "oneOf", "allOf"]) if (Array.isArray(s[k])) out[k] = (s[k] as Schema[]).map(map);
  return out;
}

/** Writes each subschema that occurs twice or more (by its JSON, at least SHARE_MIN long) once under
 * `$defs`. */
function shared(root: Schema): Schema {
  const seen = new Map<string, number>();
  const count = (s: Schema): Schema => {
    const json = JSON.stringify(s);
    if (json.length >= SHARE_MIN) seen.set(json, (seen.get(json) ?? 0) + 1);
    return children(s, count);
  };
  children(root, count);
  // The largest first: a part inside a shared part is not named again.
  const repeated = [...seen]
    .filter(([, n]) => n > 1)
    .map(([json]) => json)
    .sort((a, b) => b.length - a.length);
  const names = new Map<string, string>();
  for (const json of repeated)
    if (![...names.keys()].some((outer) => outer.includes(json))) names.set(json, `d${names.size}`);
  if (names.size === 0) return root;
  const refer = (s: Schema): Schema => {
    const name = names.get(JSON.stringify(s));
    return name ? { $ref: `#/$defs/${name}` } : children(s, refer);
  };
  const defs = Object.fromEntries(
    [...names].map(([json, name]) => [name, children(JSON.parse(json), refer)]),
  );
  return { ...children(root, refer), $defs: defs };
}
