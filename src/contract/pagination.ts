import { Type as t } from "@sinclair/typebox";

export const MAX_PER_PAGE = 50;
export const MAX_PAGE = 1_000_000_000;

/** The page/per_page query schema every paginated route and tool shares. */
export const pageQuery = {
  page: t.Integer({
    format: "int32",
    minimum: 1,
    maximum: MAX_PAGE,
    default: 1,
    description: "Page number, from 1.",
  }),
  per_page: t.Integer({
    format: "int32",
    minimum: 1,
    maximum: MAX_PAGE,
    default: MAX_PER_PAGE,
    description: `Items per page, 1 to ${MAX_PER_PAGE}; larger values are clamped to ${MAX_PER_PAGE} and echoed as such.`,
  }),
};

export interface Page {
  page: number;
  perPage: number;
  limit: number;
  offset: number;
}

/** Defaults, the clamp of per_page to 50, and the offset. */
export function pageOf(q: { page?: number; per_page?: number }): Page {
  const page = q.page ?? 1;
  const perPage = Math.min(q.per_page ?? MAX_PER_PAGE, MAX_PER_PAGE);
  return { page, perPage, limit: perPage, offset: (page - 1) * perPage };
}
