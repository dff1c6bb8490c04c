import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import { isPlanName, PLAN_NAMES, type PlanName } from "./plans.ts";
import { findOrg, type OrgState, requireOrg } from "./state.ts";
import { checkUrl, InvalidInput } from "./validate.ts";

export interface CreateOrg {
  slug: string;
  name: string;
  plan: string;
  website_url?: string;
}

const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/;

export function decideCreateOrg(
  cmd: CreateOrg,
  existing: OrgState | undefined,
  id: number,
  now: Date,
): NewEvent[] {
  if (!SLUG.test(cmd.slug))
    throw new InvalidInput("slug must be 1-64 lowercase letters, digits or hyphens", "slug");
  if (!cmd.name.trim()) throw new InvalidInput("name must not be empty", "name");
  if (!isPlanName(cmd.plan)) throw new InvalidInput(`plan must be one of ${PLAN_NAMES.join(", ")}`, "plan");
  if (existing)
    throw new DomainError("conflict", `an organization with slug ${JSON.stringify(cmd.slug)} exists`);
  const website = cmd.website_url ? checkUrl(cmd.website_url, "website") : undefined;
  return [
    {
      type: "OrgCreated",
      orgId: id,
      streamType: "org",
      streamId: String(id),
      data: {
        id,
        slug: cmd.slug,
        name: cmd.name.trim(),
        plan: cmd.plan,
        ...(website ? { website_url: website } : {}),
        created_at: now.toISOString(),
      },
    },
  ];
}

export async function createOrg(store: EventStore, cmd: CreateOrg) {
  const { result } = await store.execute(async (w) => {
    const existing = await findOrg(w.tx, cmd.slug);
    const events = decideCreateOrg(cmd, existing, existing ? 0 : await w.nextId(), w.now);
    const created = events[0];
    if (created.type !== "OrgCreated") throw new Error("decideCreateOrg must emit OrgCreated");
    return { events, result: created.data };
  });
  return result;
}

export function decideSetPlan(org: OrgState, plan: string): NewEvent[] {
  if (!isPlanName(plan)) throw new InvalidInput(`plan must be one of ${PLAN_NAMES.join(", ")}`, "plan");
  if (org.plan === plan) return [];
  return [
    { type: "OrgPlanChanged", orgId: org.id, streamType: "org", streamId: String(org.id), data: { plan } },
  ];
}

export async function setPlan(store: EventStore, slug: string, plan: string) {
  const { result } = await store.execute(async (w) => {
    const org = await requireOrg(w.tx, slug);
    return { events: decideSetPlan(org, plan), result: { id: org.id, slug, plan: plan as PlanName } };
  });
  return result;
}
