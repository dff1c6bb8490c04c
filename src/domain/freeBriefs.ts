// A visitor asks for a free competitive brief (the public /free-brief form): one FreeBriefRequested event, and
// when the public library already holds a brief on that company's domain from the period, the request is
// answered with it at once (FreeBriefAnswered `existing`). Otherwise the engine researches the website in the
// background (src/engine/briefs/freeBriefs.ts) and answers the request with the brief it publishes.
import type { NewEvent } from "../../events/catalog.ts";
import type { EventStore, Tx } from "../../events/store.ts";
import { attemptOutcome } from "./attempts.ts";
import { normalizeDomain } from "./publicLibrary.ts";
import { checkUrl, InvalidInput } from "./validate.ts";

export interface RequestFreeBrief {
  company_name?: string;
  website_url?: string;
  email: string;
}

/** One brief per company domain within this many days: a later request gets the brief already published. */
export const FREE_BRIEF_PERIOD_DAYS = 30;

const EMAIL = /^[^\s@<>()",;:]+@[^\s@<>()",;:]+\.[^\s@<>()",;:]+$/;

export function decideRequestFreeBrief(cmd: RequestFreeBrief, id: number, now: Date): NewEvent[] {
  const company = (cmd.company_name ?? "").trim();
  let website = (cmd.website_url ?? "").trim();
  const email = (cmd.email ?? "").trim();
  // The brief is read from the company's own website: without one there is nothing to research.
  if (!website) throw new InvalidInput("give the company's website, such as acme.com", "website_url");
  if (company.length > 200)
    throw new InvalidInput("company name is longer than 200 characters", "company_name");
  if (!/^[a-z][a-z0-9+.-]*:/i.test(website)) website = `https://${website}`;
  if (website.length > 500) throw new InvalidInput("website is longer than 500 characters", "website_url");
  website = checkUrl(website, "website_url");
  const domain = normalizeDomain(website);
  if (!domain) throw new InvalidInput("website must be a public web address such as acme.com", "website_url");
  if (!EMAIL.test(email) || email.length > 254)
    throw new InvalidInput("email must be an address like name@example.com", "email");
  return [
    {
      type: "FreeBriefRequested",
      orgId: null,
      streamType: "free_brief",
      streamId: String(id),
      data: {
        id,
        ...(company ? { company_name: company } : {}),
        website_url: website,
        domain,
        email,
        requested_at: now.toISOString(),
      },
    },
  ];
}

export interface ExistingBrief {
  id: number;
  company_slug: string;
  slug: string;
  company_name: string;
  published_at: string;
}

/** The newest brief on `domain` published within the period before `now`, if any. */
export async function briefOfPeriod(
  tx: Pick<Tx, "execute">,
  domain: string,
  now: Date,
): Promise<ExistingBrief | undefined> {
  const since = new Date(now.getTime() - FREE_BRIEF_PERIOD_DAYS * 86_400_000).toISOString();
  const r = await tx.execute({
    sql: `SELECT id, company_slug, slug, company_name, published_at FROM public_briefs
          WHERE domain = ? AND published_at >= ? ORDER BY published_at DESC, id DESC LIMIT 1`,
    args: [domain, since],
  });
  const row = r.rows[0];
  return row
    ? {
        id: Number(row.id),
        company_slug: String(row.company_slug),
        slug: String(row.slug),
        company_name: String(row.company_name),
        published_at: String(row.published_at),
      }
    : undefined;
}

export interface FreeBriefReceipt {
  id: number;
  domain: string;
  /** The brief of the period this request was answered with at once; absent while one is researched. */
  existing?: ExistingBrief;
}

export async function requestFreeBrief(
  store: EventStore,
  cmd: RequestFreeBrief,
  requestId?: string,
): Promise<FreeBriefReceipt> {
  const { result } = await store.execute(
    async (w) => {
      const id = await w.nextId();
      const events = decideRequestFreeBrief(cmd, id, w.now);
      const e = events[0];
      if (e.type !== "FreeBriefRequested" || !e.data.domain)
        throw new Error("decideRequestFreeBrief must emit FreeBriefRequested with a domain");
      const existing = await briefOfPeriod(w.tx, e.data.domain, w.now);
      if (existing)
        events.push({
          type: "FreeBriefAnswered",
          orgId: null,
          streamType: "free_brief",
          streamId: String(id),
          data: { id, outcome: "existing", brief_id: existing.id, answered_at: w.now.toISOString() },
        });
      return { events, result: { id, domain: e.data.domain, ...(existing ? { existing } : {}) } };
    },
    { actor: "visitor", request_id: requestId, source: "web" },
  );
  return result;
}

/** A request answered: a brief researched for it, one of its domain already published, or why there is none. */
export function decideFreeBriefAnswered(
  id: number,
  answer: { outcome: "published" | "existing" | "failed"; reason?: string },
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
      ...(answer.outcome === "failed" && answer.reason ? { reason: answer.reason } : {}),
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
