// The team's actions on a signal from the pages: pin, save, rate (with reasons) and note. Each form posts to
// /app/signals/{id}/{pin|save|rate|notes} with the CSRF token and the workspace, and runs the same decider as the
// MCP tool (domain/engagement.ts), so the events, checks and limits are the tools'. The signal page shows the
// team's notes and the reader's own rating.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { type Issuer, runCommand } from "../../events/command.ts";
import { safeNext } from "../auth/session.ts";
import type { signalEngagement } from "../db/queries/engagement.ts";
import { editCard, LIST_SECTIONS, reviewProposal } from "../domain/battlecardProposals.ts";
import {
  addBattlecardNote,
  addSignalNote,
  NOTE_MAX_UTF16,
  pinSignal,
  RATING_REASONS,
  rateSignal,
  saveSignal,
} from "../domain/engagement.ts";
import { DomainError } from "../domain/errors.ts";
import { InvalidInput } from "../domain/validate.ts";
import type { Services } from "../services.ts";
import { Csrf, TeamNote, Time } from "./components.tsx";
import { refusalPage } from "./errors.tsx";
import { decimalId, field, fields, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { formMember } from "./member.ts";

type Engagement = Awaited<ReturnType<typeof signalEngagement>>;
type Obj = Record<string, unknown>;
const CARD_SECTIONS = ["overview", ...LIST_SECTIONS];
const REASON_TEXT: Record<string, string> = {
  not_relevant: "Not relevant",
  inaccurate: "Inaccurate",
  duplicate: "Duplicate",
  too_late: "Too late",
  low_impact: "Low impact",
  other: "Other",
};

/** Where a form sends the reader back: a path of the app only (never another site, never `//host`). */
function backTo(body: unknown, fallback: string): string {
  const b = safeNext(field(body, "back"));
  return b && /^\/app(\/|\?|$)/.test(b) ? b : fallback;
}

export function SignalEngagementPanel(p: {
  id: number;
  e: Engagement;
  csrf: string;
  org: string;
}): JSX.Element {
  const { e } = p;
  const back = `/app/signals/${p.id}?org=${encodeURIComponent(p.org)}`;
  const hidden = (
    <>
      <Csrf token={p.csrf} />
      <input type="hidden" name="org" value={p.org} />
      <input type="hidden" name="back" value={back} />
    </>
  );
  const rated = e.your_rating;
  return (
    <section class="engagement" aria-labelledby="team-h">
      <h2 id="team-h">Team</h2>
      <div class="actions">
        <form method="post" action={`/app/signals/${p.id}/pin`} class="inline">
          {hidden}
          <input type="hidden" name="pinned" value={e.pinned ? "0" : "1"} />
          <button type="submit" class="secondary" aria-pressed={e.pinned ? "true" : "false"}>
            {e.pinned ? "Unpin" : "Pin for the team"}
          </button>
        </form>
        <form method="post" action={`/app/signals/${p.id}/save`} class="inline">
          {hidden}
          <input type="hidden" name="saved" value={e.saved ? "0" : "1"} />
          <button type="submit" class="secondary" aria-pressed={e.saved ? "true" : "false"}>
            {e.saved ? "Saved (remove)" : "Save for me"}
          </button>
        </form>
        {e.pinned_at ? (
          <span class="muted small">
            Pinned <Time ts={e.pinned_at} />
          </span>
        ) : (
          ""
        )}
      </div>
      <form method="post" action={`/app/signals/${p.id}/rate`} class="stack rate">
        {hidden}
        <fieldset>
          <legend>Was this signal useful?</legend>
          {rated ? (
            <p class="muted small">
              {`You rated it ${rated.useful ? "useful" : "not useful"}`} <Time ts={rated.rated_at} />.
            </p>
          ) : (
            ""
          )}
          <label class="check">
            <input type="radio" name="useful" value="1" checked={rated?.useful === true} required /> Useful
          </label>
          <label class="check">
            <input type="radio" name="useful" value="0" checked={rated?.useful === false} /> Not useful
          </label>
          <p class="muted small">If not useful, why (optional):</p>
          {RATING_REASONS.map((r) => (
            <label class="check">
              <input
                type="checkbox"
                name="reasons"
                value={r}
                checked={rated?.reasons?.includes(r) === true}
              />{" "}
              {Html.escapeHtml(REASON_TEXT[r] ?? r)}
            </label>
          ))}
          <label for="rate-comment">Comment (optional, for a not-useful rating)</label>
          <input
            id="rate-comment"
            name="comment"
            maxlength={String(NOTE_MAX_UTF16)}
            value={rated?.comment ?? ""}
          />
          <button type="submit">Rate</button>
        </fieldset>
      </form>
      <h3 id="notes">Notes ({Html.escapeHtml(String(e.notes_total))})</h3>
      {e.notes.length ? (
        <ol class="notes">
          {e.notes.map((n) => (
            <TeamNote note={n} />
          ))}
        </ol>
      ) : (
        <p class="muted">No notes yet.</p>
      )}
      <form method="post" action={`/app/signals/${p.id}/notes`} class="stack">
        {hidden}
        <label for="note-body">Add a note for the team</label>
        <textarea id="note-body" name="body" rows="3" maxlength={String(NOTE_MAX_UTF16)} required></textarea>
        <button type="submit">Add note</button>
      </form>
    </section>
  );
}

export function signalActionRoutes(s: Services) {
  /** Runs one command for the member of the workspace the form names; refusals answer with their reason. */
  async function act(
    request: Request,
    body: unknown,
    rawId: string,
    run: (by: Issuer, id: number) => Promise<unknown>,
    /** Where to go back to when the form names no page of the app. */
    fallback: (id: number) => string = (id) => `/app/signals/${id}`,
  ): Promise<Response> {
    const id = decimalId(rawId) ?? notFound();
    const f = await formMember(s, request, body);
    if (f instanceof Response) return f;
    const { m, org } = f;
    const actor = `user:${m.session.userId}`;
    const by: Issuer = {
      caller: { orgId: org.orgId, actor, actorName: m.session.name ?? undefined },
      metadata: { source: "web" },
    };
    try {
      await run(by, id);
    } catch (e) {
      if (e instanceof DomainError && e.code === "not_found") notFound();
      if (e instanceof InvalidInput || e instanceof DomainError)
        return refusalPage("Not saved", `Not saved: ${e.message}`, 400, m.session.email);
      throw e;
    }
    return redirect(backTo(body, `${fallback(id)}?org=${encodeURIComponent(org.orgSlug)}`));
  }
  const flag = (body: unknown, name: string) => {
    const v = field(body, name);
    if (v !== "0" && v !== "1") throw new InvalidInput(`${name} must be 0 or 1`, name);
    return v === "1";
  };

  return (
    new Elysia({ name: "web-signal-actions" })
      .post("/app/signals/:id/pin", ({ request, body, params }) =>
        act(request, body, params.id, (by, id) =>
          runCommand(s.store, pinSignal, { signal_id: id, pinned: flag(body, "pinned") }, by),
        ),
      )
      .post("/app/signals/:id/save", ({ request, body, params }) =>
        act(request, body, params.id, (by, id) =>
          runCommand(s.store, saveSignal, { signal_id: id, saved: flag(body, "saved") }, by),
        ),
      )
      .post("/app/signals/:id/rate", ({ request, body, params }) =>
        act(request, body, params.id, (by, id) => {
          const useful = flag(body, "useful");
          const comment = field(body, "comment").trim();
          const rating = {
            signal_id: id,
            useful,
            // A useful rating carries no reasons: boxes left ticked from an earlier rating are not sent on.
            ...(useful ? {} : { reasons: fields(body, "reasons"), ...(comment ? { comment } : {}) }),
          };
          return runCommand(s.store, rateSignal, rating, by);
        }),
      )
      // A battlecard note (add_battlecard_note): team knowledge for the competitor's next battlecard, shown on the
      // battlecard page as a note. The id is the competitor's.
      .post("/app/competitors/:id/battlecard-notes", ({ request, body, params }) =>
        act(
          request,
          body,
          params.id,
          (by, id) =>
            runCommand(s.store, addBattlecardNote, { competitor_id: id, body: field(body, "body") }, by),
          (id) => `/app/competitors/${id}`,
        ),
      )
      // A member accepts or dismisses a battlecard's proposed update (domain/battlecardProposals.ts).
      .post("/app/battlecards/:id/proposal", ({ request, body, params }) =>
        act(
          request,
          body,
          params.id,
          (by, id) => {
            const decision = field(body, "decision");
            if (decision !== "accept" && decision !== "dismiss")
              throw new InvalidInput("decision must be accept or dismiss", "decision");
            const proposed_at = field(body, "proposed_at");
            const review = { battlecard_id: id, decision, ...(proposed_at ? { proposed_at } : {}) } as const;
            return runCommand(s.store, reviewProposal, review, by);
          },
          (id) => `/app/battlecards/${id}`,
        ),
      )
      // A member edits a battlecard: the sections changed become the team's words.
      .post("/app/battlecards/:id/edit", ({ request, body, params }) =>
        act(
          request,
          body,
          params.id,
          (by, id) =>
            runCommand(
              s.store,
              editCard,
              {
                battlecard_id: id,
                sections: Object.fromEntries(
                  CARD_SECTIONS.filter((k) => typeof (body as Obj | null)?.[`section_${k}`] === "string").map(
                    (k) => [k, field(body, `section_${k}`)],
                  ),
                ),
              },
              by,
            ),
          (id) => `/app/battlecards/${id}`,
        ),
      )
      .post("/app/signals/:id/notes", ({ request, body, params }) =>
        act(request, body, params.id, (by, id) =>
          runCommand(s.store, addSignalNote, { signal_id: id, body: field(body, "body") }, by),
        ),
      )
  );
}
