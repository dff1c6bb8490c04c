import type { EventPayloads, NewEvent } from "../../events/catalog.ts";
import { type Actor, type Command, type Issuer, runCommand } from "../../events/command.ts";
import type { EventStore } from "../../events/store.ts";
import { orgRecordBySlug } from "../db/queries/orgs.ts";
import { DomainError } from "./errors.ts";
import { OPERATOR } from "./operator.ts";
import { isPlanName, PLAN_NAMES, type PlanName } from "./plans.ts";
import { findOrg, type OrgState, orgNamed } from "./state.ts";
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

export interface OrgCreation {
  existing: OrgState | undefined;
  id: number;
}

export const createOrgCommand: Command<CreateOrg, OrgCreation, EventPayloads["OrgCreated"], Actor> = {
  load: async (w, cmd) => {
    const existing = await findOrg(w.tx, cmd.slug);
    return { existing, id: existing ? 0 : await w.nextId() };
  },
  decide: (st, cmd, { now }) => {
    const events = decideCreateOrg(cmd, st.existing, st.id, now);
    const created = events[0];
    if (created.type !== "OrgCreated") throw new Error("decideCreateOrg must emit OrgCreated");
    return { events, result: created.data };
  },
};

/** `rivals org create` and the setup of a workspace: creates an org as the operator. */
export function createOrg(store: EventStore, cmd: CreateOrg, by: Issuer<Actor> = OPERATOR) {
  return runCommand(store, createOrgCommand, cmd, by);
}

export function decideSetPlan(org: OrgState, plan: string): NewEvent[] {
  if (!isPlanName(plan)) throw new InvalidInput(`plan must be one of ${PLAN_NAMES.join(", ")}`, "plan");
  if (org.plan === plan) return [];
  return [
    { type: "OrgPlanChanged", orgId: org.id, streamType: "org", streamId: String(org.id), data: { plan } },
  ];
}

export const setPlanCommand: Command<
  { org: string; plan: string },
  (OrgState & { version?: number }) | undefined,
  { id: number; slug: string; plan: PlanName },
  Actor
> = {
  load: (w, cmd) => orgRecordBySlug(w.tx, cmd.org, { version: true }),
  stream: (o) =>
    o?.version === undefined ? undefined : { streamType: "org", streamId: String(o.id), version: o.version },
  decide: (org, cmd) => {
    const o = orgNamed(org, cmd.org);
    return {
      events: decideSetPlan(o, cmd.plan),
      result: { id: o.id, slug: cmd.org, plan: cmd.plan as PlanName },
    };
  },
};

/** `rivals org set-plan`: the operator changes an org's plan. */
export function setPlan(store: EventStore, slug: string, plan: string, by: Issuer<Actor> = OPERATOR) {
  return runCommand(store, setPlanCommand, { org: slug, plan }, by);
}
