// The core watchlist: add, rename and remove competitors, and the extra pages watched on them.
// Each command (events/command.ts runs it) has a loader (reads the state it needs in the writer's transaction
// and takes the ids) and a pure decider (state in, events out, or a refusal); events/catalog.ts names the
// events, projections/watchlist.ts applies them.
import type { NewEvent } from "../../events/catalog.ts";
import type { Command, Loading, StreamAt } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import {
  competitorKeyTaken,
  competitorRowsWithWebsite,
  listedCompetitorRow,
  monitoredPage,
  monitoredPageRows,
  orgPlanRow,
  WEBSITE_PAGE,
  type WebsiteCursor,
} from "../db/queries/watchlistState.ts";
import { DomainError } from "./errors.ts";
import { hostRefusal, isIpLiteral, normaliseHost } from "./hostname.ts";
import { cheapestPaidPlan, planOf, requirePaid } from "./plans.ts";
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

/** The key of a watched URL a command names, or undefined when it is no web address (its decider says why). */
function urlKeyOrUndefined(input: string): string | undefined {
  try {
    return urlKey(parseWebUrl(input, "url", { keepQuery: true }));
  } catch {
    return undefined;
  }
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
  const org = await orgPlanRow(tx, orgId);
  if (!org) throw new DomainError("not_found", "No such workspace.");
  return org;
}

export interface CompetitorRow {
  id: number;
  key: string;
  name: string;
  website_url: string | null;
  watch: string;
  tracking: string;
  record: CompetitorRecord;
  /** The competitor stream's version this row was read at (when the read asked for it). */
  version?: number;
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
    ...(row.version === undefined || row.version === null ? {} : { version: Number(row.version) }),
  };
}

/** A competitor this workspace lists (any watch), or undefined: other org, unknown id. With `version`, the
 * row carries its stream's version, for a command whose state is this competitor (its events go right after it;
 * any other write to the stream meanwhile makes the command run again). */
export async function findTrackedCompetitor(
  tx: Exec,
  orgId: number,
  id: number,
  opts: { version?: boolean } = {},
): Promise<CompetitorRow | undefined> {
  const row = await listedCompetitorRow(tx, orgId, id, Boolean(opts.version));
  return row ? toCompetitor(row) : undefined;
}

/** The competitor a command names must be one this workspace actively tracks; anything else (other org,
 * removed, paused) is unknown. */
export function refuseUntracked(comp: CompetitorRow | undefined): CompetitorRow {
  if (!comp) throw new DomainError("not_found", "No competitor with that id in this workspace.");
  return comp;
}

/** As refuseUntracked, and on the core watchlist (horizon competitors are refused). */
export function refuseNonCore(comp: CompetitorRow | undefined, doing: string): CompetitorRow {
  const c = refuseUntracked(comp);
  if (c.watch !== "core")
    throw new DomainError(
      "invalid_argument",
      `${c.name} is on the horizon watch, not the core watchlist; ${doing} works on core competitors only.`,
      { argument: "competitor_id" },
    );
  return c;
}

export async function requireTrackedCompetitor(tx: Exec, orgId: number, id: number): Promise<CompetitorRow> {
  return refuseUntracked(await findTrackedCompetitor(tx, orgId, id));
}

export async function requireCoreCompetitor(
  tx: Exec,
  orgId: number,
  id: number,
  doing: string,
): Promise<CompetitorRow> {
  return refuseNonCore(await findTrackedCompetitor(tx, orgId, id), doing);
}

/** The competitor's stream at the version its row was read at: a command whose state is this competitor. */
export function competitorAt(comp: CompetitorRow | undefined): StreamAt | undefined {
  if (comp?.version === undefined) return undefined;
  return { streamType: "competitor", streamId: String(comp.id), version: comp.version };
}

const competitorStream = (orgId: number, id: number) => ({
  orgId,
  streamType: "competitor" as const,
  streamId: String(id),
});

// ---------------------------------------------------------------------------------------------------------
// add_competitor / rename_competitor / remove_competitor

export interface AddCompetitorCommand {
  website_url: string;
  name?: string;
}

export interface AddCompetitorResult {
  id: number;
  restored: boolean;
  core_slots: { used: number; limit: number; plan: string };
}

export interface AddCompetitorState {
  org: OrgRow;
  /** The workspace's competitors at the command's website (same urlKey), whatever their tracking, newest first. */
  sameSite: CompetitorRow[];
  /** Core slots in use. */
  coreUsed: number;
}

export async function loadAddCompetitor(
  tx: Exec,
  c: Caller,
  cmd: AddCompetitorCommand,
): Promise<AddCompetitorState> {
  const key = urlKey(parseWebUrl(cmd.website_url, "website_url", { keepQuery: false }));
  const org = await loadOrg(tx, c.orgId);
  // Read a page at a time; the few at this website are kept, newest first.
  const sameSite: CompetitorRow[] = [];
  let after: WebsiteCursor | undefined;
  for (;;) {
    const page = await competitorRowsWithWebsite(tx, c.orgId, after);
    for (const row of page) if (siteKeyOf(String(row.website_url)) === key) sameSite.push(toCompetitor(row));
    const last = page.at(-1);
    if (!last || page.length < WEBSITE_PAGE) break;
    after = { websiteUrl: String(last.website_url), id: Number(last.id) };
  }
  sameSite.sort((a, b) => b.id - a.id);
  return { org, sameSite, coreUsed: await coreSlotsUsed(tx, c.orgId) };
}

/** Id and record key of a competitor added new: `added-{id}`, made unique when an import already took it. */
export interface NewCompetitorIdentity {
  id: number;
  key: string;
}

async function newCompetitorIdentity(w: Loading, orgId: number): Promise<NewCompetitorIdentity> {
  const id = await w.nextId();
  const key = `added-${id}`;
  const clash = await competitorKeyTaken(w.tx, orgId, key);
  return { id, key: clash ? `${key}-${crypto.randomUUID().slice(0, 8)}` : key };
}

/** Its state is the workspace's competitors at one website and its core slots: no one stream. */
export const addCompetitor: Command<
  AddCompetitorCommand,
  AddCompetitorState & { fresh: NewCompetitorIdentity | undefined },
  AddCompetitorResult
> = {
  load: async (w, cmd, c) => {
    const st = await loadAddCompetitor(w.tx, c, cmd);
    // A website the workspace knows comes back under its own id: only a new one takes an id.
    return { ...st, fresh: st.sameSite.length ? undefined : await newCompetitorIdentity(w, c.orgId) };
  },
  decide: (st, cmd, { caller, now }) => decideAddCompetitor(st, caller, cmd, now, st.fresh),
};

/** Adds a competitor to the core watchlist, or brings back the one the workspace had at that website.
 * `fresh` is the identity of a new competitor, needed only when `st.sameSite` is empty. */
export function decideAddCompetitor(
  st: AddCompetitorState,
  c: Caller,
  cmd: AddCompetitorCommand,
  now: Date,
  fresh: NewCompetitorIdentity | undefined,
): { events: NewEvent[]; result: AddCompetitorResult } {
  const url = parseWebUrl(cmd.website_url, "website_url", { keepQuery: false });
  const name = cmd.name?.trim() || nameFromDomain(url.hostname);
  if (name.length > 200) throw new InvalidInput("name is longer than 200 characters", "name");
  const plan = planOf(st.org.plan);

  const same = st.sameSite;
  const tracked = same.find((x) => x.tracking === "active" && x.watch === "core");
  if (tracked)
    throw new DomainError(
      "conflict",
      `${tracked.name} (${tracked.website_url}) is already on the core watchlist as competitor ${tracked.id}.`,
      { competitor_id: tracked.id },
    );
  // A known website comes back with its history: an active horizon record first, else the newest other one.
  const known = same.find((x) => x.tracking === "active") ?? same[0];

  const used = st.coreUsed;
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
  const at = now.toISOString();

  if (known) {
    const events: NewEvent[] = [
      {
        type: "CompetitorRestored",
        ...competitorStream(c.orgId, known.id),
        data: { id: known.id, restored_at: at },
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

  if (!fresh) throw new Error("decideAddCompetitor: a new competitor needs its pre-allocated identity");
  const { id } = fresh;
  return {
    events: [
      {
        type: "CompetitorAdded",
        ...competitorStream(c.orgId, id),
        data: { id, key: fresh.key, name, website_url: url.href, added_at: at },
      },
    ],
    result: { id, restored: false, core_slots: slots },
  };
}

export const renameCompetitor: Command<
  { competitor_id: number; name: string },
  CompetitorRow | undefined,
  { id: number; renamed: boolean }
> = {
  load: (w, cmd, c) => findTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id, { version: true }),
  stream: competitorAt,
  decide: (comp, cmd, { caller }) => decideRenameCompetitor(comp, caller, cmd),
};

/** `comp`: the competitor the command names, as findTrackedCompetitor reads it. */
export function decideRenameCompetitor(
  comp: CompetitorRow | undefined,
  c: Caller,
  cmd: { competitor_id: number; name: string },
): { events: NewEvent[]; result: { id: number; renamed: boolean } } {
  const name = cmd.name.trim().replace(/\s+/g, " ");
  if (!name) throw new InvalidInput("name must not be empty", "name");
  if (name.length > 200) throw new InvalidInput("name is longer than 200 characters", "name");
  const tracked = refuseUntracked(comp);
  if (tracked.name === name) return { events: [], result: { id: tracked.id, renamed: false } };
  return {
    events: [
      { type: "CompetitorRenamed", ...competitorStream(c.orgId, tracked.id), data: { id: tracked.id, name } },
    ],
    result: { id: tracked.id, renamed: true },
  };
}

export const removeCompetitor: Command<
  { competitor_id: number },
  { comp: CompetitorRow | undefined; org: OrgRow },
  { id: number; name: string; website_url: string | null }
> = {
  load: async (w, cmd, c) => ({
    comp: await findTrackedCompetitor(w.tx, c.orgId, cmd.competitor_id, { version: true }),
    org: await loadOrg(w.tx, c.orgId),
  }),
  stream: (st) => competitorAt(st.comp),
  decide: (st, _cmd, { caller, now }) => decideRemoveCompetitor(st, caller, now),
};

/** `comp`: the competitor the command names, as findTrackedCompetitor reads it. */
export function decideRemoveCompetitor(
  st: { comp: CompetitorRow | undefined; org: OrgRow },
  c: Caller,
  now: Date,
): { events: NewEvent[]; result: { id: number; name: string; website_url: string | null } } {
  requirePaid(planOf(st.org.plan), "remove_competitor");
  const core = refuseNonCore(st.comp, "remove_competitor");
  return {
    events: [
      {
        type: "CompetitorRemoved",
        ...competitorStream(c.orgId, core.id),
        data: { id: core.id, removed_at: now.toISOString() },
      },
    ],
    result: { id: core.id, name: core.name, website_url: core.website_url },
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
  return (await monitoredPageRows(tx, orgId, competitorId)).map((x) => ({
    id: x.id,
    url: x.url,
    added_at: x.added_at,
    ...(x.render ? { render: true as const } : {}),
  }));
}

export interface AddMonitoredPageCommand {
  competitor_id: number;
  url: string;
  render?: boolean;
}

export interface AddMonitoredPageState {
  comp: CompetitorRow | undefined;
  org: OrgRow;
  /** The pages already watched on the competitor. */
  pages: { id: number; url: string; url_key: string }[];
}

export async function loadAddMonitoredPage(
  tx: Exec,
  c: Caller,
  cmd: AddMonitoredPageCommand,
): Promise<AddMonitoredPageState> {
  const comp = await findTrackedCompetitor(tx, c.orgId, cmd.competitor_id, { version: true });
  const org = await loadOrg(tx, c.orgId);
  if (!comp) return { comp, org, pages: [] };
  const pages = (await monitoredPageRows(tx, c.orgId, comp.id)).map((p) => ({
    id: p.id,
    url: p.url,
    url_key: p.url_key,
  }));
  return { comp, org, pages };
}

export const addMonitoredPage: Command<
  AddMonitoredPageCommand,
  AddMonitoredPageState & { pageId: number },
  { competitor_id: number; page: MonitoredPage; limit: number }
> = {
  load: async (w, cmd, c) => ({ ...(await loadAddMonitoredPage(w.tx, c, cmd)), pageId: await w.nextId() }),
  stream: (st) => competitorAt(st.comp),
  decide: (st, cmd, { caller, now }) => decideAddMonitoredPage(st, caller, cmd, now, st.pageId),
};

/** `id`: the new page's, pre-allocated. */
export function decideAddMonitoredPage(
  st: AddMonitoredPageState,
  c: Caller,
  cmd: AddMonitoredPageCommand,
  now: Date,
  id: number,
): { events: NewEvent[]; result: { competitor_id: number; page: MonitoredPage; limit: number } } {
  const plan = planOf(st.org.plan);
  requirePaid(plan, "add_monitored_page");
  const url = parseWebUrl(cmd.url, "url", { keepQuery: true });
  const comp = refuseNonCore(st.comp, "add_monitored_page");
  const key = urlKey(url);
  const dup = st.pages.find((p) => p.url_key === key);
  if (dup)
    throw new DomainError("conflict", `${dup.url} is already watched for ${comp.name} as page ${dup.id}.`, {
      page_id: dup.id,
    });
  const limit = plan.monitoredPagesPerCompetitor;
  if (st.pages.length >= limit)
    throw new DomainError(
      "limit_reached",
      `${comp.name} already has ${st.pages.length} monitored pages; the ${plan.label} plan allows ${limit} per competitor. Remove one first.`,
      { limit: "monitored_pages_per_competitor", allowed: limit, used: st.pages.length, plan: plan.name },
    );
  const page: MonitoredPage = {
    id,
    url: url.href,
    added_at: now.toISOString(),
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

export interface RemoveMonitoredPageCommand {
  competitor_id: number;
  page_id?: number;
  url?: string;
}

export interface RemoveMonitoredPageState {
  comp: CompetitorRow | undefined;
  org: OrgRow;
  /** The page the command names on that competitor, if it is watched. */
  page: { id: number; url: string; added_at: string } | undefined;
}

export async function loadRemoveMonitoredPage(
  tx: Exec,
  c: Caller,
  cmd: RemoveMonitoredPageCommand,
): Promise<RemoveMonitoredPageState> {
  const comp = await findTrackedCompetitor(tx, c.orgId, cmd.competitor_id, { version: true });
  const org = await loadOrg(tx, c.orgId);
  // Neither or both of page_id and url, or a url that is none: refused by the decider, after the plan.
  const key = cmd.url === undefined ? undefined : urlKeyOrUndefined(cmd.url);
  if (!comp || (cmd.page_id === undefined) === (cmd.url === undefined) || (cmd.url !== undefined && !key))
    return { comp, org, page: undefined };
  const page = await monitoredPage(
    tx,
    c.orgId,
    comp.id,
    cmd.page_id !== undefined ? { id: cmd.page_id } : { urlKey: key! },
  );
  return { comp, org, page };
}

export const removeMonitoredPage: Command<
  RemoveMonitoredPageCommand,
  RemoveMonitoredPageState,
  { competitor_id: number; page: MonitoredPage }
> = {
  load: (w, cmd, c) => loadRemoveMonitoredPage(w.tx, c, cmd),
  stream: (st) => competitorAt(st.comp),
  decide: (st, cmd, { caller, now }) => decideRemoveMonitoredPage(st, caller, cmd, now),
};

export function decideRemoveMonitoredPage(
  st: RemoveMonitoredPageState,
  c: Caller,
  cmd: RemoveMonitoredPageCommand,
  now: Date,
): { events: NewEvent[]; result: { competitor_id: number; page: MonitoredPage } } {
  requirePaid(planOf(st.org.plan), "remove_monitored_page");
  if ((cmd.page_id === undefined) === (cmd.url === undefined))
    throw new InvalidInput(
      "Give exactly one of page_id or url.",
      cmd.page_id === undefined ? "page_id" : "url",
    );
  const comp = refuseUntracked(st.comp);
  if (cmd.url !== undefined) parseWebUrl(cmd.url, "url", { keepQuery: true });
  const page = st.page;
  if (!page)
    throw new DomainError(
      "not_found",
      `No monitored page with that ${cmd.page_id !== undefined ? "id" : "url"} on ${comp.name}.`,
    );
  return {
    events: [
      {
        type: "MonitoredPageRemoved",
        ...competitorStream(c.orgId, comp.id),
        data: { id: page.id, competitor_id: comp.id, removed_at: now.toISOString() },
      },
    ],
    result: { competitor_id: comp.id, page },
  };
}
