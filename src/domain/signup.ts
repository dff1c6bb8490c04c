// Sign-up: a new workspace on the trial plan and its first admin, in one command (OrgCreated,
// UserRegistered, UserPasswordSet, MembershipGranted), built from the orgs' and members' deciders.
import { type Actor, type Command, runCommand } from "../../events/command.ts";
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

/** A sign-up, its fields checked and the password hashed (before the write: argon2id is slow). */
export interface SignUpCommand {
  workspace: string;
  email: string;
  name?: string;
  passwordHash: string;
}

/** What a sign-up is decided on: whether the address has an account, the workspace's free slug, the ids. */
export interface SignUpState {
  taken: boolean;
  slug: string;
  orgId: number;
  userId: number;
}

export function decideSignUp(st: SignUpState, cmd: SignUpCommand, now: Date) {
  if (st.taken) throw new DomainError("conflict", "an account with this email exists; sign in to use it");
  const events = [
    ...decideCreateOrg({ slug: st.slug, name: cmd.workspace, plan: "trial" }, undefined, st.orgId, now),
    ...decideUser(undefined, st.userId, cmd.email, { name: cmd.name, passwordHash: cmd.passwordHash }, now),
    ...decideMembership(st.orgId, st.userId, undefined, "admin", now),
  ];
  return { events, result: { org_id: st.orgId, org_slug: st.slug, user_id: st.userId, email: cmd.email } };
}

export const signUpCommand: Command<
  SignUpCommand,
  SignUpState,
  ReturnType<typeof decideSignUp>["result"],
  Actor
> = {
  load: async (w, cmd) => {
    const taken = Boolean(await findUserByEmail(w.tx, cmd.email));
    if (taken) return { taken, slug: "", orgId: 0, userId: 0 };
    return {
      taken,
      slug: await freeSlug(w.tx, slugify(cmd.workspace)),
      orgId: await w.nextId(),
      userId: await w.nextId(),
    };
  },
  decide: (st, cmd, { now }) => decideSignUp(st, cmd, now),
};

/** The sign-up form: checks the fields and hashes the password, then runs the command as a visitor. */
export async function signUp(store: EventStore, cmd: SignUp) {
  const workspace = cmd.workspace.trim();
  if (!workspace) throw new InvalidInput("workspace name must not be empty", "workspace");
  if (workspace.length > 100)
    throw new InvalidInput("workspace name is longer than 100 characters", "workspace");
  const email = normalizeEmail(cmd.email);
  const name = checkName(cmd.name);
  const passwordHash = await hashPassword(cmd.password);
  return runCommand(
    store,
    signUpCommand,
    { workspace, email, name, passwordHash },
    { caller: { actor: "visitor" }, metadata: { source: "signup" } },
  );
}
