// The demo workspace of `npm start` / `rivals serve --demo` / `rivals demo`: the records of
// examples/demo.ndjson, an API key, and a demo admin who can sign in to the app pages (the CLI prints what
// loadDemo returns: cli/demo.ts; the demo page names the workspace).
//
// Secrets are printed once to the operator and stored only as digests (the key as SHA-256, the password as
// argon2id), so a later start cannot show them again. A later start reuses the workspace and the admin
// (the password stays what it was; the admin's sessions stay signed in), prints a new API key as before
// (keys are additive: older ones keep working), and says how to sign in: with the password printed at the
// first start, or a new one from `rivals demo reset-password`, which replaces it and ends the admin's
// sessions.
import { randomBytes } from "node:crypto";
import { runCommand } from "../../events/command.ts";
import demoData from "../../examples/demo.ndjson" with { type: "text" };
import { DEMO_ORG } from "../config.ts";
import { createApiKey, parseScopes } from "../domain/apiKeys.ts";
import { DomainError } from "../domain/errors.ts";
import { importNdjson } from "../domain/imports.ts";
import { addMember, findRole, findUserByEmail, hashPassword } from "../domain/members.ts";
import { setPassword } from "../domain/passwordChange.ts";
import { findOrg } from "../domain/state.ts";
import type { Services } from "../services.ts";

export { DEMO_ORG };
export const DEMO_ADMIN_EMAIL = "admin@demo.example";
export const DEMO_ADMIN_NAME = "Demo admin";
/** How to get a new demo password, from the built executable and from a checkout. */
export const RESET_COMMAND = "rivals demo reset-password";
export const RESET_COMMAND_NPM = "npm run rivals -- demo reset-password";

/** 128 random bits in base64url (22 characters): typed or pasted once, then changed on the Account page. */
export function generatePassword(): string {
  return randomBytes(16).toString("base64url");
}

export interface DemoStart {
  base_url: string;
  org: string;
  api_key: string;
  signin_url: string;
  email: string;
  /** The generated password: only when this call created the admin (or gave it its first password). */
  password: string | null;
  /** True when the workspace's records were all already there (a later start). */
  reused: boolean;
}

export async function loadDemo(s: Services): Promise<DemoStart> {
  // Loaded once: a later start keeps the workspace as it is, with what the engine added to it (research
  // dossiers, signals); importing again would put the imported competitor records back over the research.
  const loaded = (await findOrg(s.database, DEMO_ORG)) !== undefined;
  const report = loaded ? { applied: 0, errors: [] } : await importNdjson(s.store, demoData, DEMO_ORG);
  if (report.errors.length) throw new Error(`demo data failed to load: ${JSON.stringify(report.errors)}`);
  const key = await createApiKey(s.store, DEMO_ORG, "demo", parseScopes(undefined));
  const existing = await findUserByEmail(s.database, DEMO_ADMIN_EMAIL);
  // A first password when the admin is new, or has none (it signed in with single sign-on only).
  const password = existing?.password_hash ? undefined : generatePassword();
  await addMember(s.store, {
    org: DEMO_ORG,
    email: DEMO_ADMIN_EMAIL,
    role: "admin",
    name: existing ? undefined : DEMO_ADMIN_NAME,
    password,
  });
  return {
    base_url: s.config.baseUrl,
    org: DEMO_ORG,
    api_key: key.token,
    signin_url: `${s.config.baseUrl}/signin`,
    email: DEMO_ADMIN_EMAIL,
    password: password ?? null,
    reused: report.applied === 0,
  };
}

export interface DemoPasswordReset {
  signin_url: string;
  email: string;
  password: string;
  ended_sessions: number;
}

/** `rivals demo reset-password`: a new generated password for the demo admin; its sessions end. */
export async function resetDemoPassword(s: Services): Promise<DemoPasswordReset> {
  const password = generatePassword();
  const passwordHash = await hashPassword(password); // argon2id outside the writer's transaction
  const org = await findOrg(s.database, DEMO_ORG);
  const user = await findUserByEmail(s.database, DEMO_ADMIN_EMAIL);
  if (!org || !user || !(await findRole(s.database, org.id, user.id)))
    throw new DomainError(
      "not_found",
      `There is no demo workspace in this database yet: run 'rivals demo' or 'npm start' first.`,
    );
  // Every session ends (none is kept): whoever signed in with the old password is signed out.
  const result = await runCommand(
    s.store,
    setPassword,
    { userId: user.id, keepSession: "", passwordHash },
    { caller: { actor: "cli" } },
  );
  return {
    signin_url: `${s.config.baseUrl}/signin`,
    email: DEMO_ADMIN_EMAIL,
    password,
    ended_sessions: result.endedSessions,
  };
}
