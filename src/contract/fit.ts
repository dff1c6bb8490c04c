// Fits a stored API object to its schema's bounds (contract/schemas.ts, domain/limits.ts) when it is projected:
// a longer string is cut with an ellipsis, a longer list keeps its first items, and a URL or time too long
// to cut meaningfully is left out (every such field is optional). So the document's maxLength and maxItems
// hold for whatever wrote the record: the importer, the tools or the engine.
import type { TSchema } from "@sinclair/typebox";
import { cut } from "../domain/limits.ts";

type Schema = TSchema & {
  properties?: Record<string, Schema>;
  items?: Schema;
  maxLength?: number;
  maxItems?: number;
  format?: string;
};

export function fit<V>(schema: TSchema, value: V): V {
  return fitValue(schema as Schema, value) as V;
}

function fitValue(schema: Schema, value: unknown): unknown {
  if (typeof value === "string") {
    if (schema.maxLength === undefined || value.length <= schema.maxLength) return value;
    return schema.format ? undefined : cut(value, schema.maxLength);
  }
  if (Array.isArray(value)) {
    const kept = schema.maxItems !== undefined ? value.slice(0, schema.maxItems) : value;
    return schema.items ? kept.map((v) => fitValue(schema.items!, v)).filter((v) => v !== undefined) : kept;
  }
  if (value && typeof value === "object" && schema.properties) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const prop = schema.properties[k];
      const fitted = prop ? fitValue(prop, v) : v;
      if (fitted !== undefined) out[k] = fitted;
    }
    return out;
  }
  return value;
}
