// Business failures a command can end in; the REST API, the tools and the CLI map them in one place each.
export type DomainCode =
  | "not_found"
  | "invalid_argument"
  | "conflict"
  | "forbidden"
  | "plan_required"
  | "limit_reached"
  | "locked"
  | "chat_not_connected"
  | "research_required"
  | "delivery_failed"
  | "research_failed";

export class DomainError extends Error {
  constructor(
    public code: DomainCode,
    message: string,
    public extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}
