// `rivals <command>`: every command docs/operations.md lists, the same from `bun src/main.ts` and `dist/rivals`.
import { readFileSync } from "node:fs";
import { runCommand } from "../../events/command.ts";
import { rebuildProjections } from "../../projections/rebuild.ts";
import { loadConfig } from "../config.ts";
import { listApiKeys } from "../db/queries/apiKeys.ts";
import { startDemoEngine } from "../demo/engine.ts";
import { advanceDemoSites, demoSitesVersion, startDemoWeb } from "../demo/web.ts";
import { DEMO_ORG, loadDemo, resetDemoPassword } from "../demo/workspace.ts";
import { createApiKeyCommand, parseScopes, revokeApiKeyCommand } from "../domain/apiKeys.ts";
import { connectChatCommand } from "../domain/chat.ts";
import { exportNdjson } from "../domain/exports.ts";
import { importNdjson } from "../domain/imports.ts";
import { addMember, isRole, listMembers } from "../domain/members.ts";
import { OPERATOR } from "../domain/operator.ts";
import { createOrgCommand, setPlanCommand } from "../domain/orgs.ts";
import { requireOrg } from "../domain/state.ts";
import { startServer } from "../server.ts";
import { openServices, type Services } from "../services.ts";
import { flags, print, required, UsageError } from "./args.ts";
import { briefsCommand } from "./briefs.ts";
import { compactCommand } from "./compact.ts";
import { cycleCommand } from "./cycle.ts";
import { demoBanner } from "./demo.ts";
import { digestsCommand } from "./digests.ts";
import { researchCommand } from "./research.ts";

/** The operator at the command line, as the log records them. */
const CLI = { ...OPERATOR, metadata: { source: "cli" } };

export const USAGE = `Usage: rivals <command> [options]

  serve [--demo]                      run the service (env RIVALS_DB, PORT, RIVALS_BASE_URL)
  migrate                             apply database migrations
  demo                                load the demo workspace; print a demo API key and the demo admin's
                                      sign-in (its generated password only the first time)
  demo reset-password                 set and print a new password for the demo admin (ends its sessions)
  demo advance                        move the demo's fictional websites to their next version (v1 → v2
                                      planted changes → v3 noise only); the next cycle reads it
  org create --slug S --name N --plan P [--website URL]
  org set-plan --org S --plan trial|free|starter|growth|enterprise
  org connect-chat --org S --webhook URL [--provider slack|teams]
                                      connect team chat (a Slack incoming webhook, or a Microsoft Teams
                                      Workflows webhook) for cycle delivery
  key create --org S [--name N] [--scopes read,write,spend]
  key revoke --org S --id ID
  key list --org S
  member add --org S --email E --role admin|member [--name N] [--password-stdin]
                                      add a person (created if new); the password is read from stdin
  member list --org S
  research --org S --competitor ID    research one competitor now (first research or refresh; no allowance
                                      used); prints one JSON summary, exits 1 when it fails
  research --org S --competitor ID --history
                                      read (or wait for) its web-archive history; prints one JSON summary
  cycle --org S [--competitor ID]     one monitoring cycle now (every core competitor, or one); prints
                                      its JSON summary
  digests generate --org S --type daily_digest|weekly_tldr [--end ISO]
                                      write the digest of the UTC day / ISO week just before --end
                                      (default: the last complete one); prints its id and slug
  briefs held                         the free briefs waiting for an operator's review (RIVALS_FREE_BRIEF_REVIEW),
                                      one JSON line each, with their findings and sources
  briefs publish --id ID              publish a held brief (library, public tools, emails to confirmed requesters)
  briefs reject --id ID               never publish it; its requesters are told it was not published
  import [FILE|-]                     import NDJSON records or an export (docs/import.md)
  export [--org S]                    write the event log as NDJSON
  projections rebuild                 empty the read tables and replay the log
  compact [--days N] [--vacuum]       drop the bookkeeping of cycles older than N days (default 35) that
                                      nothing serves; --vacuum gives the freed space back to the disk
                                      (a database file only: a libSQL server does not run it)
`;

async function withServices<T>(fn: (s: Services) => Promise<T>): Promise<T> {
  const s = await openServices(loadConfig());
  try {
    return await fn(s);
  } finally {
    s.close();
  }
}

async function memberCommand(sub: string | undefined, rest: string[]): Promise<number> {
  const { values } = flags(rest, {
    org: { type: "string" },
    email: { type: "string" },
    role: { type: "string" },
    name: { type: "string" },
    "password-stdin": { type: "boolean" },
  });
  const org = required(values.org, "org");
  if (sub === "add") {
    const email = required(values.email, "email");
    const role = required(values.role, "role");
    if (!isRole(role)) throw new UsageError("--role must be admin or member");
    let password: string | undefined;
    if (values["password-stdin"]) {
      password = (await new Response(Bun.stdin.stream()).text()).replace(/\r?\n$/, "");
      if (password === "") throw new UsageError("--password-stdin was given but stdin held no password");
    }
    return withServices(async (s) => {
      const r = await addMember(s.store, { org, email, role, name: values.name, password }, CLI);
      print({ user_id: r.user_id, org: r.org, email: r.email, role: r.role });
      return 0;
    });
  }
  if (sub === "list")
    return withServices(async (s) => {
      const o = await requireOrg(s.database, org);
      for (const m of await listMembers(s.database, o.id)) print(m);
      return 0;
    });
  throw new UsageError("member takes add or list");
}

export async function run(argv: string[]): Promise<number> {
  const [cmd, sub, ...rest] = argv;
  switch (cmd) {
    case "serve": {
      const { values } = flags([sub, ...rest].filter(Boolean) as string[], { demo: { type: "boolean" } });
      const config = loadConfig();
      let s: Services | undefined;
      // The demo's fictional web, served by this process: the demo workspace's fetches go there and nowhere else.
      const demoWeb = values.demo
        ? startDemoWeb(() => (s ? demoSitesVersion(s) : Promise.resolve(1)))
        : undefined;
      if (demoWeb) config.demoSites = demoWeb.sites;
      s = await openServices(config);
      if (values.demo) {
        for (const line of demoBanner(await loadDemo(s))) console.log(line);
      }
      await startServer(s);
      // Research and a first cycle of the demo's competitors, in the background.
      if (demoWeb) void startDemoEngine(s, DEMO_ORG);
      return -1; // keep running
    }
    case "migrate":
      return withServices(async (s) => {
        print({ migrated: true, database: s.config.dbUrl });
        return 0;
      });
    case "demo":
      if (sub === "advance")
        return withServices(async (s) => {
          const a = await advanceDemoSites(s);
          print({
            ...a,
            next:
              a.version === a.from
                ? "the demo sites are at their last version"
                : "the running server's next cycle of the demo workspace (scheduled) reads it; the app's 'Advance the demo sites' button advances and runs a cycle at once",
          });
          return 0;
        });
      if (sub === "reset-password")
        return withServices(async (s) => {
          print(await resetDemoPassword(s));
          return 0;
        });
      if (sub !== undefined)
        throw new UsageError(`demo takes no argument, advance or reset-password, not '${sub}'`);
      return withServices(async (s) => {
        const d = await loadDemo(s);
        print({
          base_url: d.base_url,
          org: d.org,
          api_key: d.api_key,
          signin_url: d.signin_url,
          email: d.email,
          password: d.password,
          ...(d.password === null ? { password_reset: "rivals demo reset-password" } : {}),
        });
        return 0;
      });
    case "org": {
      const { values } = flags(rest, {
        slug: { type: "string" },
        name: { type: "string" },
        plan: { type: "string" },
        website: { type: "string" },
        webhook: { type: "string" },
        provider: { type: "string" },
        org: { type: "string" },
      });
      if (sub === "create")
        return withServices(async (s) => {
          print(
            await runCommand(
              s.store,
              createOrgCommand,
              {
                slug: required(values.slug, "slug"),
                name: required(values.name, "name"),
                plan: required(values.plan, "plan"),
                website_url: values.website,
              },
              CLI,
            ),
          );
          return 0;
        });
      if (sub === "set-plan")
        return withServices(async (s) => {
          const cmd = { org: required(values.org, "org"), plan: required(values.plan, "plan") };
          print(await runCommand(s.store, setPlanCommand, cmd, CLI));
          return 0;
        });
      if (sub === "connect-chat") {
        const provider = values.provider ?? "slack";
        if (provider !== "slack" && provider !== "teams")
          throw new UsageError("--provider is slack or teams");
        return withServices(async (s) => {
          print(
            await runCommand(
              s.store,
              connectChatCommand,
              {
                org: required(values.org, "org"),
                webhook_url: required(values.webhook, "webhook"),
                unsafe_origins: s.config.unsafeWebhookOrigins,
                provider,
              },
              CLI,
            ),
          );
          return 0;
        });
      }
      throw new UsageError("org takes create, set-plan or connect-chat");
    }
    case "key": {
      const { values } = flags(rest, {
        org: { type: "string" },
        name: { type: "string" },
        scopes: { type: "string" },
        id: { type: "string" },
      });
      const org = required(values.org, "org");
      if (sub === "create")
        return withServices(async (s) => {
          const cmd = { org, name: values.name, scopes: parseScopes(values.scopes) };
          print(await runCommand(s.store, createApiKeyCommand, cmd, CLI));
          return 0;
        });
      if (sub === "revoke") {
        const id = Number(required(values.id, "id"));
        if (!Number.isInteger(id)) throw new UsageError("--id must be a key id (an integer)");
        return withServices(async (s) => {
          print(await runCommand(s.store, revokeApiKeyCommand, { org, id }, CLI));
          return 0;
        });
      }
      if (sub === "list")
        return withServices(async (s) => {
          const o = await requireOrg(s.database, org);
          // Oldest first, as the keys were made.
          for (const k of (await listApiKeys(s.database.db, o.id)).reverse())
            print({
              id: k.id,
              name: k.name,
              prefix: k.prefix,
              scopes: k.scopes,
              created_at: k.created_at,
              ...(k.last_used_at ? { last_used_at: k.last_used_at } : {}),
              ...(k.revoked_at ? { revoked_at: k.revoked_at } : {}),
            });
          return 0;
        });
      throw new UsageError("key takes create, revoke or list");
    }
    case "member":
      return memberCommand(sub, rest);
    case "research":
      return researchCommand([sub, ...rest].filter(Boolean) as string[]);
    case "compact":
      return compactCommand([sub, ...rest].filter(Boolean) as string[]);
    case "cycle":
      return cycleCommand([sub, ...rest].filter(Boolean) as string[]);
    case "digests":
      return digestsCommand([sub, ...rest].filter(Boolean) as string[]);
    case "briefs":
      return briefsCommand([sub, ...rest].filter(Boolean) as string[]);
    case "import": {
      const file = sub ?? "-";
      const text = file === "-" ? await new Response(Bun.stdin.stream()).text() : readFileSync(file, "utf8");
      return withServices(async (s) => {
        const report = await importNdjson(s.store, text);
        for (const e of report.errors) console.error(`line ${e.line}: ${e.error}`);
        print({
          lines: report.lines,
          applied: report.applied,
          unchanged: report.unchanged,
          failed: report.errors.length,
        });
        return report.errors.length ? 1 : 0;
      });
    }
    case "export": {
      const { values } = flags([sub, ...rest].filter(Boolean) as string[], { org: { type: "string" } });
      return withServices(async (s) => {
        await exportNdjson(s, values.org, (line) => process.stdout.write(line));
        return 0;
      });
    }
    case "projections":
      if (sub !== "rebuild") throw new UsageError("projections takes rebuild");
      return withServices(async (s) => {
        print(await rebuildProjections(s.store));
        return 0;
      });
    case undefined:
    case "help":
    case "--help":
    case "-h":
      process.stdout.write(USAGE);
      return cmd === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command ${JSON.stringify(cmd)}`);
  }
}
