// A visitor asks for a free competitive brief (the public /free-brief form): one FreeBriefRequested event, and
// when the public library already holds a brief on that company's domain from the period, the request is
// answered with it at once (FreeBriefAnswered `existing`). Otherwise the engine researches the website in the
// background (src/engine/briefs/freeBriefs.ts) and answers the request with the brief it writes.
// An anonymous visitor must not be able to use this against others: the address given is emailed only after it
// confirms (double opt-in: a confirmation email whose one-time link's token is kept only as its SHA-256
// digest), emails are bounded per company, per recipient and per client network (FREE_BRIEF in limits.ts), a
// private or special-use address is refused by the form itself (the fetcher guard's own classification), and
// the thank-you page shows a request's state only to the browser that made it (viewer_digest).
import { getDomain } from "tldts";
import type { NewEvent } from "../../events/catalog.ts";
import type { Actor, Command } from "../../events/command.ts";
import type { Tx } from "../../events/store.ts";
import { digestsEqual, randomSecret, sha256 } from "../auth/tokens.ts";
import { confirmationsAskedSince, newestBriefSince, pendingConfirmation } from "../db/queries/freeBriefs.ts";
import { attemptOutcome } from "./attempts.ts";
import { DomainError } from "./errors.ts";
import { hostRefusal, isIpLiteral, normaliseHost } from "./hostname.ts";
import { FREE_BRIEF } from "./limits.ts";
import { InvalidInput } from "./validate.ts";

export interface RequestFreeBrief {
  company_name?: string;
  website_url?: string;
  /** Optional: without one, the brief is shown only on the thank-you page. */
  email?: string;
}

/** One brief per company domain within this many days: a later request gets the brief already published. */
export const FREE_BRIEF_PERIOD_DAYS = FREE_BRIEF.periodDays;

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;
const DAY_MS = 86_400_000;

/** The company a host belongs to: its registrable domain (`blog.acme.co.uk` → `acme.co.uk`), so every
 * subdomain is one company. Hosting platforms' customer names stay apart (`acme.github.io`). */
export function companyDomain(host: string): string | undefined {
  const h = normaliseHost(host);
  if (!h || isIpLiteral(h)) return undefined;
  const d = getDomain(h, { allowPrivateDomains: true });
  return d && /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(d) ? d : undefined;
}

/** The request's fields, checked: the website (with `https://` assumed), its company domain, the name and the
 * email as typed. Refuses, with what to give instead, a website that is not a public internet host. */
export function parseFreeBriefRequest(cmd: RequestFreeBrief): {
  company?: string;
  website: string;
  domain: string;
  email?: string;
} {
  const company = (cmd.company_name ?? "").trim();
  let website = (cmd.website_url ?? "").trim();
  const email = (cmd.email ?? "").trim();
  // The brief is read from the company's own website: without one there is nothing to research.
  if (!website) throw new InvalidInput("give the company's website, such as acme.com", "website_url");
  if (company.length > 200)
    throw new InvalidInput("company name is longer than 200 characters", "company_name");
  if (website.length > 500) throw new InvalidInput("website is longer than 500 characters", "website_url");
  // `localhost:8080` is a host and port, not a scheme.
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(website)) website = `https://${website}`;
  let url: URL;
  try {
    url = new URL(website);
  } catch {
    throw new InvalidInput("website must be a web address such as acme.com", "website_url");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new InvalidInput("website must be an http(s) address such as https://acme.com", "website_url");
  if (url.username || url.password)
    throw new InvalidInput("website must not carry a user name or password", "website_url");
  // The fetcher's address guard would refuse it later: refuse it here, before anything is stored.
  const host = normaliseHost(url.hostname);
  if (hostRefusal(host))
    throw new InvalidInput(
      `${host || "the website"} is a private or special-use address, not a public website; give the company's public website, such as acme.com`,
      "website_url",
    );
  if (isIpLiteral(host))
    throw new InvalidInput(
      "give the company's website by its name, such as acme.com, not by an IP address",
      "website_url",
    );
  const domain = companyDomain(host);
  if (!domain) throw new InvalidInput("website must be a public web address such as acme.com", "website_url");
  if (email && (!EMAIL.test(email) || email.length > 254))
    throw new InvalidInput("email must be an address like name@example.com, or left empty", "email");
  return { ...(company ? { company } : {}), website: url.href, domain, ...(email ? { email } : {}) };
}

/** How many confirmation emails were already asked for, as FREE_BRIEF's limits count them: about this company
 * within the period, to this address within `recipientDays`, from this client network within a day. */
export interface EmailCounts {
  company: number;
  recipient: number;
  network: number;
}

/** Why a request's email address is not written to (its brief is shown on the thank-you page only). */
export type EmailWithheld = "company" | "recipient" | "network";

export function emailWithheld(counts: EmailCounts): EmailWithheld | undefined {
  if (counts.company >= FREE_BRIEF.emailsPerCompany) return "company";
  if (counts.recipient >= FREE_BRIEF.emailsPerRecipient) return "recipient";
  if (counts.network >= FREE_BRIEF.emailsPerNetwork) return "network";
  return undefined;
}

/** What the handler supplies besides the form: the id, the digest of the requesting browser's token and of
 * its client network, and the counts the email limits read. */
export interface FreeBriefRequestContext {
  id: number;
  viewerDigest: string;
  networkDigest: string;
  counts: EmailCounts;
}

export function decideRequestFreeBrief(
  cmd: RequestFreeBrief,
  ctx: FreeBriefRequestContext,
  now: Date,
): NewEvent[] {
  const p = parseFreeBriefRequest(cmd);
  const withheld = p.email ? emailWithheld(ctx.counts) : undefined;
  const confirm = !!p.email && !withheld;
  return [
    {
      type: "FreeBriefRequested",
      orgId: null,
      streamType: "free_brief",
      streamId: String(ctx.id),
      data: {
        id: ctx.id,
        ...(p.company ? { company_name: p.company } : {}),
        website_url: p.website,
        domain: p.domain,
        // An address that will not be written to is not kept.
        ...(confirm ? { email: p.email!.toLowerCase(), confirm: true } : {}),
        ...(withheld ? { email_withheld: withheld } : {}),
        viewer_digest: ctx.viewerDigest,
        network: ctx.networkDigest,
        requested_at: now.toISOString(),
      },
    },
  ];
}

/** The counts of confirmations asked for, read from the requests' table (each by its own index). */
export async function loadEmailCounts(
  tx: Pick<Tx, "execute">,
  q: { domain: string; email?: string; networkDigest: string },
  now: Date,
): Promise<EmailCounts> {
  const since = (days: number) => new Date(now.getTime() - days * DAY_MS).toISOString();
  const count = (column: "domain" | "email" | "network", value: string, days: number) =>
    confirmationsAskedSince(tx, column, value, since(days));
  if (!q.email) return { company: 0, recipient: 0, network: 0 };
  return {
    company: await count("domain", q.domain, FREE_BRIEF.periodDays),
    recipient: await count("email", q.email.toLowerCase(), FREE_BRIEF.recipientDays),
    network: await count("network", q.networkDigest, 1),
  };
}

export interface ExistingBrief {
  id: number;
  company_slug: string;
  slug: string;
  company_name: string;
  published_at: string;
}

/** The newest brief on `domain` written within the period before `now`, if any (one an operator refused to
 * publish does not count: the domain may be researched again). */
export async function briefOfPeriod(
  tx: Pick<Tx, "execute">,
  domain: string,
  now: Date,
): Promise<ExistingBrief | undefined> {
  const since = new Date(now.getTime() - FREE_BRIEF.periodDays * DAY_MS).toISOString();
  return newestBriefSince(tx, domain, since);
}

export interface FreeBriefReceipt {
  id: number;
  domain: string;
  /** The brief of the period this request was answered with at once; absent while one is researched. */
  existing?: ExistingBrief;
  /** A confirmation email will be sent to the address given. */
  confirm: boolean;
  withheld?: EmailWithheld;
}

/** What a request is decided on: its id, the email limits' counts and the period's brief of its domain. */
export interface FreeBriefRequestState {
  id: number;
  counts: EmailCounts;
  existing: ExistingBrief | undefined;
}

/** A request from the form, with the digests of the requesting browser's token and of its client network. */
export interface FreeBriefRequestInput extends RequestFreeBrief {
  viewerDigest: string;
  networkDigest: string;
}

export function decideFreeBriefRequest(
  st: FreeBriefRequestState,
  cmd: FreeBriefRequestInput,
  now: Date,
): { events: NewEvent[]; result: FreeBriefReceipt } {
  const { viewerDigest, networkDigest, ...form } = cmd;
  const events = decideRequestFreeBrief(
    form,
    { id: st.id, viewerDigest, networkDigest, counts: st.counts },
    now,
  );
  const e = events[0];
  if (e.type !== "FreeBriefRequested" || !e.data.domain)
    throw new Error("decideRequestFreeBrief must emit FreeBriefRequested with a domain");
  if (st.existing) events.push(decideFreeBriefAnswered(st.id, { outcome: "existing" }, st.existing.id, now));
  return {
    events,
    result: {
      id: st.id,
      domain: e.data.domain,
      ...(st.existing ? { existing: st.existing } : {}),
      confirm: e.data.confirm === true,
      ...(e.data.email_withheld ? { withheld: e.data.email_withheld } : {}),
    },
  };
}

/** The fields as far as they parse (the decider refuses the rest). */
function parsedOrUndefined(cmd: RequestFreeBrief) {
  try {
    return parseFreeBriefRequest(cmd);
  } catch {
    return undefined;
  }
}

/** The public form's request: one FreeBriefRequested, answered at once when the period has a brief. */
export const requestFreeBrief: Command<
  FreeBriefRequestInput,
  FreeBriefRequestState,
  FreeBriefReceipt,
  Actor
> = {
  load: async (w, cmd) => {
    const p = parsedOrUndefined(cmd);
    const id = await w.nextId();
    if (!p) return { id, counts: { company: 0, recipient: 0, network: 0 }, existing: undefined };
    return {
      id,
      counts: await loadEmailCounts(
        w.tx,
        { domain: p.domain, email: p.email, networkDigest: cmd.networkDigest },
        w.now,
      ),
      existing: await briefOfPeriod(w.tx, p.domain, w.now),
    };
  },
  decide: (st, cmd, { now }) => decideFreeBriefRequest(st, cmd, now),
};

/** Why no brief was written, in our own words: the reader sees one of these, never text a site chose. */
export const FAILURE_REASONS = {
  unreachable: "The website could not be reached, or did not answer in time.",
  http_error: "The website's home page answered with an error.",
  robots_disallowed: "The website's robots.txt does not allow our crawler to read it.",
  blocked_address: "The website's address is not a public internet address.",
  unsupported_content: "The website's home page is not a web page we can read.",
  too_large: "The website's home page is larger than we read.",
  too_many_redirects: "The website's home page redirects too many times.",
  invalid_url: "The website's address could not be read.",
  nothing_stated:
    "We read the website but found nothing it states that a brief could report (no pricing, product, hiring, release or company facts on the pages we could read).",
  out_of_time: "The website answered too slowly to be read within our time limit for a free brief.",
  internal: "Research stopped on an internal error.",
  rejected: "The brief was reviewed and not published.",
} as const;
export type FailureReason = keyof typeof FAILURE_REASONS;

/** A failed research's code (research/index.ts, the fetcher's error codes) as one of our reasons. */
export function failureReason(code: string): FailureReason {
  if (code === "timeout" || code === "network") return "unreachable";
  return code in FAILURE_REASONS ? (code as FailureReason) : "unreachable";
}

/** A request answered: a brief researched for it, one of its domain already written, or why there is none. */
export function decideFreeBriefAnswered(
  id: number,
  answer: { outcome: "published" | "existing" } | { outcome: "failed"; reason: FailureReason },
  briefId: number | undefined,
  now: Date,
): NewEvent {
  return {
    type: "FreeBriefAnswered",
    orgId: null,
    streamType: "free_brief",
    streamId: String(id),
    data: {
      id,
      outcome: answer.outcome,
      ...(briefId !== undefined ? { brief_id: briefId } : {}),
      ...(answer.outcome === "failed" ? { reason: FAILURE_REASONS[answer.reason] } : {}),
      answered_at: now.toISOString(),
    },
  };
}

/** One try to email a request's answer (the one retry rule, domain/attempts.ts). */
export function decideFreeBriefEmailed(
  id: number,
  attempt: number,
  at: Date,
  error: string | undefined,
  maxAttempts: number,
): NewEvent {
  return {
    type: "FreeBriefEmailed",
    orgId: null,
    streamType: "free_brief",
    streamId: String(id),
    data: { id, ...attemptOutcome(attempt, at, error, maxAttempts) },
  };
}

/** One try to send a request's confirmation email. Each try carries a new token: a sent one's digest is kept
 * with when its link stops working; a failed one's token was never seen and is dropped. */
export function decideFreeBriefConfirmationEmailed(
  id: number,
  attempt: number,
  at: Date,
  error: string | undefined,
  maxAttempts: number,
  tokenDigest: string,
): NewEvent {
  const outcome = attemptOutcome(attempt, at, error, maxAttempts);
  return {
    type: "FreeBriefConfirmationEmailed",
    orgId: null,
    streamType: "free_brief",
    streamId: String(id),
    data: {
      id,
      ...outcome,
      ...(outcome.ok
        ? {
            confirm_digest: tokenDigest,
            expires_at: new Date(at.getTime() + FREE_BRIEF.confirmHours * 3_600_000).toISOString(),
          }
        : {}),
    },
  };
}

/** A request whose confirmation link was followed, as stored. */
export interface PendingConfirmation {
  id: number;
  domain: string;
  confirmDigest: string;
  expiresAt: string;
}

/** The link's token confirms the request: once, before it expires. */
export function decideConfirmFreeBrief(
  pending: PendingConfirmation | undefined,
  tokenDigest: string,
  now: Date,
): NewEvent[] {
  if (!pending || !digestsEqual(pending.confirmDigest, tokenDigest))
    throw new DomainError("not_found", "This confirmation link is not valid, or was already used.");
  if (now.toISOString() >= pending.expiresAt)
    throw new DomainError(
      "conflict",
      `This confirmation link has expired (links work for ${FREE_BRIEF.confirmHours} hours); nothing will be emailed.`,
    );
  return [
    {
      type: "FreeBriefConfirmed",
      orgId: null,
      streamType: "free_brief",
      streamId: String(pending.id),
      data: { id: pending.id, confirmed_at: now.toISOString() },
    },
  ];
}

/** Confirms the request whose confirmation token (by its digest) this is; answers its domain. */
export const confirmFreeBrief: Command<
  { tokenDigest: string },
  (PendingConfirmation & { version: number }) | undefined,
  { domain: string },
  Actor
> = {
  load: (w, cmd) => pendingConfirmation(w.tx, cmd.tokenDigest),
  stream: (p) => (p ? { streamType: "free_brief", streamId: String(p.id), version: p.version } : undefined),
  decide: (pending, cmd, { now }) => ({
    events: decideConfirmFreeBrief(pending, cmd.tokenDigest, now),
    result: { domain: pending!.domain },
  }),
};

/** A random secret (a confirmation link's token, a browser's token) and the SHA-256 digest that is all the
 * server keeps of it. */
export function newSecret(): { secret: string; digest: string } {
  const secret = randomSecret();
  return { secret, digest: sha256(secret) };
}

/** The digest a presented secret is looked up by; undefined when it cannot be one of ours. */
export function secretDigest(secret: string | undefined | null): string | undefined {
  return secret && /^[A-Za-z0-9_-]{43}$/.test(secret) ? sha256(secret) : undefined;
}
