// Sign-up: a new workspace on the trial plan and its first admin, in one command (OrgCreated,
// UserRegistered, UserPasswordSet, MembershipGranted), built from the orgs' and members' deciders.
import type { EventStore, Tx } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import {
  checkName,
  decideMembership,
  decideUser,
  findUserByEmail,
  hashPassword,
  normalizeEmail,
} from "./members.ts";
import { decideCreateOrg } from "./orgs.ts";
import { findOrg } from "./state.ts";
import { InvalidInput } from "./validate.ts";

export interface SignUp {
  workspace: string;
  email: string;
  password: string;
  name?: string;
}

/** A slug from a workspace name: lowercase ASCII letters and digits joined by hyphens. */
export function slugify(name: string): string {
  const s = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 50)
    .replace(/-+$/, "");
  return s || "workspace";
}

async function freeSlug(tx: Pick<Tx, "execute">, wanted: string): Promise<string> {
  if (!(await findOrg(tx, wanted))) return wanted;
  for (let i = 2; i < 1000; i++) {
    const slug = `${wanted}-${i}`;
    if (!(await findOrg(tx, slug))) return slug;
  }
  return `${wanted}-${crypto.randomUUID().slice(0, 8)}`;
}

export async function signUp(store: EventStore, cmd: SignUp) {
  const workspace = cmd.workspace.trim();
  if (!workspace) throw new InvalidInput("workspace name must not be empty", "workspace");
  if (workspace.length > 100)
    throw new InvalidInput("workspace name is longer than 100 characters", "workspace");
  const email = normalizeEmail(cmd.email);
  const name = checkName(cmd.name);
  const passwordHash = await hashPassword(cmd.password);
  const { result } = await store.execute(
    async (w) => {
      if (await findUserByEmail(w.tx, email))
        throw new DomainError("conflict", "an account with this email exists; sign in to use it");
      const slug = await freeSlug(w.tx, slugify(workspace));
      const orgId = await w.nextId();
      const userId = await w.nextId();
      const events = [
        ...decideCreateOrg({ slug, name: workspace, plan: "trial" }, undefined, orgId, w.now),
        ...decideUser(undefined, userId, email, { name, passwordHash }, w.now),
        ...decideMembership(orgId, userId, undefined, "admin", w.now),
      ];
      return { events, result: { org_id: orgId, org_slug: slug, user_id: userId, email } };
    },
    { actor: "visitor", source: "signup" },
  );
  return result;
}
