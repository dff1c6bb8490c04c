// Pages of the workspace lists a tool returns (competitors, battlecards, members): a plan bounds most of
// them, but records imported from NDJSON (horizon competitors, members added on the command line) are not
// counted against a plan, so a tool result still never carries more than `limit` of them. A result carries
// `total` and, when more follow, `next_cursor`; passing it back as `cursor` gives the next page.
import { z } from "zod";
import { ToolError } from "../tool.ts";

export const LIST_PAGE_MAX = 100;

export function pageArgs(dflt: number) {
  return {
    limit: z.number().int().min(1).max(LIST_PAGE_MAX).default(dflt),
    cursor: z.string().min(1).max(32).optional(),
  };
}

export const pageShape = {
  total: z.number().int().describe("How many there are in all."),
  next_cursor: z
    .string()
    .optional()
    .describe("Present when more follow: pass it as cursor for the next page (same limit)."),
};

/** The offset a cursor names (a malformed cursor is invalid_argument naming `cursor`). */
export function offsetOf(cursor: string | undefined): number {
  if (cursor === undefined) return 0;
  if (!/^[1-9]\d{0,8}$/.test(cursor))
    throw new ToolError("invalid_argument", "cursor must be a next_cursor from an earlier result.", {
      argument: "cursor",
    });
  return Number(cursor);
}

/** One page of a list already in memory (the read cache's shared list: never changed here). */
export function pageOfList<T>(all: readonly T[], limit: number, cursor: string | undefined) {
  const offset = offsetOf(cursor);
  const items = all.slice(offset, offset + limit);
  const end = offset + items.length;
  return { items, total: all.length, next_cursor: end < all.length ? String(end) : undefined };
}

/** One page of rows read `limit + 1` at a time from `offset`: the row past the page says more follow. */
export function pageOfRows<T>(rows: readonly T[], limit: number, offset: number) {
  return {
    items: rows.slice(0, limit),
    next_cursor: rows.length > limit ? String(offset + limit) : undefined,
  };
}
