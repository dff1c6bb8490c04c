// What the free-brief worker records (src/engine/briefs/freeBriefs.ts researches and mails): a domain's answer
// to every request still queued for it, the brief published first when there is one, and each try to email a
// confirmation or an answer. No workspace: the engine issues these for visitors.
import type { NewEvent } from "../../events/catalog.ts";
import type { Actor, Command } from "../../events/command.ts";
import {
  briefSlugTaken,
  companySlugOfDomain,
  companySlugTaken,
  queuedRequestIds,
} from "../db/freeBriefWork.ts";
import { storedPublicBrief } from "../db/queries/libraryRecords.ts";
import {
  decideFreeBriefAnswered,
  decideFreeBriefConfirmationEmailed,
  decideFreeBriefEmailed,
  type FailureReason,
} from "./freeBriefs.ts";
import { decidePublicBrief, parsePublicBrief, SLUG, type StoredRecord } from "./publicLibrary.ts";

export type FreeBriefAnswer =
  | { outcome: "published"; brief: Record<string, unknown> }
  | { outcome: "existing"; briefId: number }
  | { outcome: "failed"; reason: FailureReason };

/** `acme.example` → `acme-example`, cut to the library's slug rule. */
function domainSlug(domain: string): string {
  return (
    domain
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 100)
      .replace(/-+$/, "") || "company"
  );
}

export interface AnswerState {
  /** The requests still queued for the domain. */
  queued: number[];
  /** The brief to publish under its free slugs, what is stored there, and its id. */
  publish?: { brief: ReturnType<typeof parsePublicBrief>; stored: StoredRecord | undefined; id: number };
}

/** Answers every request still queued for `domain` (none: answered meanwhile, by another instance or at once),
 * publishing the brief first when there is one: under the company's slug of an earlier brief on this domain,
 * else one from the domain, and a brief slug of its date made unique within the company. `held`: kept for an
 * operator's review. */
export const answerFreeBriefs: Command<
  { domain: string; answer: FreeBriefAnswer; held: boolean },
  AnswerState,
  null,
  Actor
> = {
  load: async (w, { domain, answer }) => {
    const queued = await queuedRequestIds(w.tx, domain);
    if (queued.length === 0 || answer.outcome !== "published") return { queued };
    const prior = await companySlugOfDomain(w.tx, domain);
    let companySlug = prior ?? domainSlug(domain);
    if (prior === undefined && (await companySlugTaken(w.tx, companySlug)))
      companySlug = `${companySlug.slice(0, 90)}-${await w.nextId()}`;
    const base = `brief-${w.now.toISOString().slice(0, 10)}`;
    let slug = base;
    for (let n = 2; ; n++) {
      if (!(await briefSlugTaken(w.tx, companySlug, slug))) break;
      slug = `${base}-${n}`;
    }
    if (!SLUG.test(companySlug)) throw new Error(`bad company slug ${companySlug}`);
    const brief = parsePublicBrief({
      kind: "public_brief",
      company_slug: companySlug,
      slug,
      ...answer.brief,
      published_at: w.now.toISOString(),
    });
    const stored = await storedPublicBrief<StoredRecord["record"]>(w.tx, brief.companySlug, brief.slug);
    return { queued, publish: { brief, stored, id: stored?.id ?? (await w.nextId()) } };
  },
  decide: (st, { answer, held }, { now }) => {
    if (st.queued.length === 0) return { events: [], result: null };
    const events: NewEvent[] = [];
    let briefId: number | undefined;
    if (st.publish) {
      const recorded = decidePublicBrief(st.publish.brief, st.publish.stored, st.publish.id, held);
      events.push(...recorded);
      const e = recorded[0];
      if (e?.type === "PublicBriefRecorded") briefId = e.data.id;
    } else if (answer.outcome === "existing") briefId = answer.briefId;
    for (const id of st.queued)
      events.push(
        decideFreeBriefAnswered(
          id,
          answer.outcome === "failed" ? answer : { outcome: answer.outcome },
          briefId,
          now,
        ),
      );
    return { events, result: null };
  },
};

/** One try to email request `id`'s answer (`error` when it failed). */
export const recordFreeBriefEmailed: Command<
  { id: number; attempt: number; error: string | undefined; maxAttempts: number },
  null,
  null,
  Actor
> = {
  load: async () => null,
  decide: (_st, i, { now }) => ({
    events: [decideFreeBriefEmailed(i.id, i.attempt, now, i.error, i.maxAttempts)],
    result: null,
  }),
};

/** One try to email request `id`'s confirmation, with the digest of the token its link carried. */
export const recordFreeBriefConfirmationEmailed: Command<
  { id: number; attempt: number; error: string | undefined; maxAttempts: number; tokenDigest: string },
  null,
  null,
  Actor
> = {
  load: async () => null,
  decide: (_st, i, { now }) => ({
    events: [decideFreeBriefConfirmationEmailed(i.id, i.attempt, now, i.error, i.maxAttempts, i.tokenDigest)],
    result: null,
  }),
};
