// The core watchlist: add, rename and remove competitors, and the extra pages watched on them.
// Deciders load what they need inside the writer's transaction and emit events (events/catalog.ts);
// projections/watchlist.ts applies them.
import type { NewEvent } from "../../events/catalog.ts";
import type { Tx, WriteContext } from "../../events/store.ts";
import { DomainError } from "./errors.ts";
import { hostRefusal, isIpLiteral, normaliseHost } from "./hostname.ts";
import { cheapestPaidPlan, planOf } from "./plans.ts";
import { coreSlotsUsed } from "./planUsage.ts";
import type { CompetitorRecord } from "./records.ts";
import { InvalidInput } from "./validate.ts";

type Exec = Pick<Tx, "execute">;

/** Who runs a command: the org and the actor recorded on the events. */
export interface Caller {
  orgId: number;
  actor: string;
  actorName?: string;
}

// ---------------------------------------------------------------------------------------------------------
// URLs

/** Hosts a watched URL may not name: the monitor must only ever fetch public web sites, named by domain
 * (the one hostname rule, domain/hostname.ts; a trailing dot changes nothing). */
function checkPublicHost(host: string, field: string): void {
  if (isIpLiteral(normaliseHost(host)))
    throw new InvalidInput(`${field} must name a web site by its domain name, not an IP address`, field);
  if (hostRefusal(host))
    throw new InvalidInput(
      `${field} must be a public web address (a domain name such as example.com)`,
      field,
    );
}

/** Parses an http(s) web address; a bare domain ("globex.com") means https. Fragment and credentials are
 * refused or dropped; the host must be a public domain name. */
export function parseWebUrl(input: string, field: string, opts: { keepQuery: boolean }): URL {
  const raw = input.trim();
  if (!raw) throw new InvalidInput(`${field} must not be empty`, field);
  const withScheme = /^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `https://${raw}`;
  let u: URL;
  try {
    u = new URL(withScheme);
  } catch {
    throw new InvalidInput(`${field} must be an http(s) web address such as https://example.com`, field);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:")
    throw new InvalidInput(`${field} must be an http or https address`, field);
  if (u.username || u.password) throw new InvalidInput(`${field} must not contain credentials`, field);
  checkPublicHost(u.hostname, field);
  // "acme.com." is acme.com: one spelling, so duplicates are found and keys compare.
  u.hostname = u.hostname.replace(/\.+$/, "");
  u.hash = "";
  if (!opts.keepQuery) u.search = "";
  if (u.href.length > 2048) throw new InvalidInput(`${field} is longer than 2048 characters`, field);
  return u;
}

/** The identity of a web address for duplicate checks: host lower-cased without `www.`, path without a
 * trailing slash, query kept, scheme and fragment ignored. `https://www.Globex.com/` ≡ `http://globex.com`. */
export function urlKey(u: URL): string {
  const host = u.hostname.toLowerCase().replace(/^www\./, "");
  const port = u.port ? `:${u.port}` : "";
  const path = u.pathname.replace(/\/+$/, "");
  return `${host}${port}${path}${u.search}`;
}

function siteKeyOf(stored: string | null): string | undefined {
  if (!stored) return undefined;
  try {
    return urlKey(new URL(stored));
  } catch {
    return undefined;
  }
}

const SECOND_LEVEL = new Set(["co", "com", "org", "net", "ac", "gov", "edu", "ltd", "plc", "or", "ne"]);

/** A display name from a domain: `www.acme-analytics.co.uk` → `Acme Analytics`. */
export function nameFromDomain(host: string): string {
  const labels = host
    .toLowerCase()
    .replace(/^www\./, "")
    .split(".")
    .filter(Boolean);
  if (labels.length > 1) labels.pop(); // the top-level domain
  if (labels.length > 1 && SECOND_LEVEL.has(labels[labels.length - 1])) labels.pop();
  const label = labels[labels.length - 1] ?? host;
  return label
    .split(/[-_]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join(" ");
}

// ---------------------------------------------------------------------------------------------------------
// State

export interface OrgRow {
  id: number;
  plan: string;
  created_at: string;
}

export async function loadOrg(tx: Exec, orgId: number): Promise<OrgRow> {
  const r = await tx.execute({ sql: "SELECT id, plan, created_at FROM orgs WHERE id = ?", args: [orgId] });
  const row = r.rows[0];
  if (!row) throw new DomainError("not_found", "No such workspace.");
  return { id: Number(row.id), plan: String(row.plan), created_at: String(row.created_at) };
}

export interface CompetitorRow {
  id: number;
  key: string;
  name: string;
  website_url: string | null;
  watch: string;
  tracking: string;
  record: CompetitorRecord;
}

/** A `competitors` row (id, key, name, website_url, watch, tracking, state) as a CompetitorRow. */
export function toCompetitor(row: Record<string, unknown>): CompetitorRow {
  return {
    id: Number(row.id),
    key: String(row.key),
    name: String(row.name),
    website_url: row.website_url === null ? null : String(row.website_url),
    watch: String(row.watch),
    tracking: String(row.tracking),
    record: JSON.parse(String(row.state)),
  };
}

/** A competitor this workspace actively tracks; anything else (other org, removed, paused) is unknown. */
export async function requireTrackedCompetitor(tx: Exec, orgId: number, id: number): Promise<CompetitorRow> {
  const r = await tx.execute({
    sql: `SELECT id, key, name, website_url, watch, tracking, state FROM competitors
          WHERE id = ? AND org_id = ? AND listed = 1`,
    args: [id, orgId],
  });
  const row = r.rows[0];
  if (!row) throw new DomainError("not_found", "No competitor with that id in this workspace.");
  return toCompetitor(row);
}

/** As requireTrackedCompetitor, and on the core watchlist (horizon competitors are refused). */
export async function requireCoreCompetitor(
  tx: Exec,
  orgId: number,
  id: number,
  doing: string,
): Promise<CompetitorRow> {
  const c = await requireTrackedCompetitor(tx, orgId, id);
  if (c.watch !== "core")
    throw new DomainError(
      "invalid_argument",
      `${c.name} is on the horizon watch, not the core watchlist; ${doing} works on core competitors only.`,
      { argument: "competitor_id" },
    );
  return c;
}

const competitorStream = (orgId: number, id: number) => ({
  orgId,
  streamType: "competitor" as const,
  streamId: String(id),
});

// ---------------------------------------------------------------------------------------------------------
// add_competitor / rename_competitor / remove_competitor

export interface AddCompetitorResult {
  id: number;
  restored: boolean;
  core_slots: { used: number; limit: number; plan: string };
}

export async function decideAddCompetitor(
  w: WriteContext,
  c: Caller,
  cmd: { website_url: string; name?: string },
): Promise<{ events: NewEvent[]; result: AddCompetitorResult }> {
  const url = parseWebUrl(cmd.website_url, "website_url", { keepQuery: false });
  const key = urlKey(url);
  const name = cmd.name?.trim() || nameFromDomain(url.hostname);
  if (name.length > 200) throw new InvalidInput("name is longer than 200 characters", "name");
  const org = await loadOrg(w.tx, c.orgId);
  const plan = planOf(org.plan);

  const r = await w.tx.execute({
    sql: `SELECT id, key, name, website_url, watch, tracking, state FROM competitors
          WHERE org_id = ? AND website_url IS NOT NULL ORDER BY id DESC`,
    args: [c.orgId],
  });
  const same = r.rows.map(toCompetitor).filter((x) => siteKeyOf(x.website_url) === key);
  const tracked = same.find((x) => x.tracking === "active" && x.watch === "core");
  if (tracked)
    throw new DomainError(
      "conflict",
      `${tracked.name} (${tracked.website_url}) is already on the core watchlist as competitor ${tracked.id}.`,
      { competitor_id: tracked.id },
    );
  // A known website comes back with its history: an active horizon record first, else the newest other one.
  const known = same.find((x) => x.tracking === "active") ?? same[0];

  const used = await coreSlotsUsed(w.tx, c.orgId);
  if (used >= plan.coreSlots) {
    const up = cheapestPaidPlan((p) => p.coreSlots > plan.coreSlots);
    throw new DomainError(
      "limit_reached",
      `The ${plan.label} plan allows ${plan.coreSlots} core competitors and ${used} are on the watchlist; remove one first${
        up ? ` or upgrade (${up.label} allows ${up.coreSlots})` : ""
      }.`,
      {
        limit: "core_slots",
        allowed: plan.coreSlots,
        used,
        plan: plan.name,
        ...(up ? { plan_needed: up.name } : {}),
      },
    );
  }
  const slots = { used: used + 1, limit: plan.coreSlots, plan: plan.name };
  const now = w.now.toISOString();

  if (known) {
    const events: NewEvent[] = [
      {
        type: "CompetitorRestored",
        ...competitorStream(c.orgId, known.id),
        data: { id: known.id, restored_at: now },
      },
    ];
    if (cmd.name?.trim() && cmd.name.trim() !== known.name)
      events.push({
        type: "CompetitorRenamed",
        ...competitorStream(c.orgId, known.id),
        data: { id: known.id, name: cmd.name.trim() },
      });
    return { events, result: { id: known.id, restored: true, core_slots: slots } };
  }

  const id = await w.nextId();
  let recordKey = `added-${id}`;
  const clash = await w.tx.execute({
    sql: "SELECT 1 FROM competitors WHERE org_id = ? AND key = ?",
    args: [c.orgId, recordKey],
  });
  if (clash.rows[0]) recordKey = `added-${id}-${crypto.randomUUID().slice(0, 8)}`;
  return {
    events: [
      {
        type: "CompetitorAdded",
        ...competitorStream(c.orgId, id),
        data: { id, key: recordKey, name, website_url: url.href, added_at: now },
      },
    ],
    result: { id, restored: false, core_slots: slots },
  };
}

export async function decideRenameCompetitor(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number; name: string },
): Promise<{ events: NewEvent[]; result: { id: number; renamed: boolean } }> {
  const name = cmd.name.trim().replace(/\s+/g, " ");
  if (!name) throw new InvalidInput("name must not be empty", "name");
  if (name.length > 200) throw new InvalidInput("name is longer than 200 characters", "name");
  const comp = await requireTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id);
  if (comp.name === name) return { events: [], result: { id: comp.id, renamed: false } };
  return {
    events: [
      { type: "CompetitorRenamed", ...competitorStream(c.orgId, comp.id), data: { id: comp.id, name } },
    ],
    result: { id: comp.id, renamed: true },
  };
}

export async function decideRemoveCompetitor(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number },
): Promise<{ events: NewEvent[]; result: { id: number; name: string; website_url: string | null } }> {
  const comp = await requireCoreCompetitor(w.tx, c.orgId, cmd.competitor_id, "remove_competitor");
  return {
    events: [
      {
        type: "CompetitorRemoved",
        ...competitorStream(c.orgId, comp.id),
        data: { id: comp.id, removed_at: w.now.toISOString() },
      },
    ],
    result: { id: comp.id, name: comp.name, website_url: comp.website_url },
  };
}

// ---------------------------------------------------------------------------------------------------------
// add_monitored_page / remove_monitored_page

export interface MonitoredPage {
  id: number;
  url: string;
  added_at: string;
  /** Read in the browser whatever its served HTML looks like. */
  render?: true;
}

export async function monitoredPages(
  tx: Exec,
  orgId: number,
  competitorId: number,
): Promise<MonitoredPage[]> {
  const r = await tx.execute({
    sql: "SELECT id, url, added_at, render FROM monitored_pages WHERE org_id = ? AND competitor_id = ? ORDER BY id",
    args: [orgId, competitorId],
  });
  return r.rows.map((x) => ({
    id: Number(x.id),
    url: String(x.url),
    added_at: String(x.added_at),
    ...(Number(x.render) === 1 ? { render: true as const } : {}),
  }));
}

export async function decideAddMonitoredPage(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number; url: string; render?: boolean },
): Promise<{ events: NewEvent[]; result: { competitor_id: number; page: MonitoredPage; limit: number } }> {
  const url = parseWebUrl(cmd.url, "url", { keepQuery: true });
  const comp = await requireCoreCompetitor(w.tx, c.orgId, cmd.competitor_id, "add_monitored_page");
  const plan = planOf((await loadOrg(w.tx, c.orgId)).plan);
  const key = urlKey(url);
  const pages = await w.tx.execute({
    sql: "SELECT id, url, url_key FROM monitored_pages WHERE org_id = ? AND competitor_id = ?",
    args: [c.orgId, comp.id],
  });
  const dup = pages.rows.find((p) => p.url_key === key);
  if (dup)
    throw new DomainError("conflict", `${dup.url} is already watched for ${comp.name} as page ${dup.id}.`, {
      page_id: Number(dup.id),
    });
  const limit = plan.monitoredPagesPerCompetitor;
  if (pages.rows.length >= limit)
    throw new DomainError(
      "limit_reached",
      `${comp.name} already has ${pages.rows.length} monitored pages; the ${plan.label} plan allows ${limit} per competitor. Remove one first.`,
      { limit: "monitored_pages_per_competitor", allowed: limit, used: pages.rows.length, plan: plan.name },
    );
  const id = await w.nextId();
  const page: MonitoredPage = {
    id,
    url: url.href,
    added_at: w.now.toISOString(),
    ...(cmd.render ? { render: true as const } : {}),
  };
  return {
    events: [
      {
        type: "MonitoredPageAdded",
        ...competitorStream(c.orgId, comp.id),
        data: {
          id,
          competitor_id: comp.id,
          url: page.url,
          url_key: key,
          added_at: page.added_at,
          ...(cmd.render ? { render: true } : {}),
        },
      },
    ],
    result: { competitor_id: comp.id, page, limit },
  };
}

export async function decideRemoveMonitoredPage(
  w: WriteContext,
  c: Caller,
  cmd: { competitor_id: number; page_id?: number; url?: string },
): Promise<{ events: NewEvent[]; result: { competitor_id: number; page: MonitoredPage } }> {
  if ((cmd.page_id === undefined) === (cmd.url === undefined))
    throw new InvalidInput(
      "Give exactly one of page_id or url.",
      cmd.page_id === undefined ? "page_id" : "url",
    );
  const comp = await requireTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id);
  const r =
    cmd.page_id !== undefined
      ? await w.tx.execute({
          sql: "SELECT id, url, added_at FROM monitored_pages WHERE id = ? AND org_id = ? AND competitor_id = ?",
          args: [cmd.page_id, c.orgId, comp.id],
        })
      : await w.tx.execute({
          sql: "SELECT id, url, added_at FROM monitored_pages WHERE url_key = ? AND org_id = ? AND competitor_id = ?",
          args: [urlKey(parseWebUrl(cmd.url!, "url", { keepQuery: true })), c.orgId, comp.id],
        });
  const row = r.rows[0];
  if (!row)
    throw new DomainError(
      "not_found",
      `No monitored page with that ${cmd.page_id !== undefined ? "id" : "url"} on ${comp.name}.`,
    );
  const page = { id: Number(row.id), url: String(row.url), added_at: String(row.added_at) };
  return {
    events: [
      {
        type: "MonitoredPageRemoved",
        ...competitorStream(c.orgId, comp.id),
        data: { id: page.id, competitor_id: comp.id, removed_at: w.now.toISOString() },
      },
    ],
    result: { competitor_id: comp.id, page },
  };
}
