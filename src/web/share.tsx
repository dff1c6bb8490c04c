// The public page of a share link (create_share_link): `{base_url}/share/{token}` shows one signal with its
// evidence, and the team's notes only when the link includes them, until the link expires. An unknown,
// replaced or expired token is a 404 like any missing page (HTML for browsers, problem+json otherwise).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { findShareLink, type NotesPage, notesPage } from "../db/queries/engagement.ts";
import type { Services } from "../services.ts";
import { EvidenceList } from "./components.tsx";
import { formatTime, notFound } from "./http.ts";
import { Html, htmlResponse, Layout } from "./layout.tsx";

type Obj = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v : undefined);

export function SharedSignalPage({
  signal,
  notes,
  expiresAt,
}: {
  signal: Obj;
  /** The newest notes (newest first) and the total, when the link includes notes. */
  notes: Pick<NotesPage, "notes" | "notes_total"> | undefined;
  expiresAt: string;
}): JSX.Element {
  const severity = text(signal.severity);
  const evidence = Array.isArray(signal.evidence) ? signal.evidence : [];
  return (
    <Layout title={String(signal.title)}>
      <article>
        <p class="muted small">Shared signal</p>
        <h1 safe>{String(signal.title)}</h1>
        <div class="meta muted">
          {text(signal.competitor_name) ? <strong safe>{String(signal.competitor_name)}</strong> : ""}
          {severity ? <span class={`badge sev-${severity}`} safe>{`${severity} severity`}</span> : ""}
          {signal.first_seen_at ? <span safe>{`First seen ${formatTime(signal.first_seen_at)}`}</span> : ""}
          {signal.status === "closed" ? <span>Closed</span> : ""}
        </div>
        {text(signal.summary) ? (
          <p class="lead" safe>
            {String(signal.summary)}
          </p>
        ) : (
          ""
        )}
        <h2>Evidence</h2>
        {evidence.length ? (
          <EvidenceList items={evidence} />
        ) : (
          <p class="muted">No evidence excerpts are attached to this signal.</p>
        )}
        {notes && notes.notes.length > 0 ? (
          <section>
            <h2>Team notes</h2>
            {notes.notes_total > notes.notes.length ? (
              <p class="muted small" safe>
                {`The newest ${notes.notes.length} of ${notes.notes_total} notes.`}
              </p>
            ) : (
              ""
            )}
            <ul>
              {notes.notes.map((n) => (
                <li>
                  <p safe>{n.body}</p>
                  <p class="muted small" safe>
                    {formatTime(n.created_at)}
                  </p>
                </li>
              ))}
            </ul>
          </section>
        ) : (
          ""
        )}
        <p class="muted small" safe>
          {`Shared from Rivals. This link works until ${formatTime(expiresAt)}.`}
        </p>
      </article>
    </Layout>
  );
}

export function sharePage(s: Services) {
  return new Elysia().get("/share/:token", async ({ params }) => {
    const link = await findShareLink(s.database, params.token, s.clock());
    if (!link) notFound();
    const signal = JSON.parse(link.doc) as Obj;
    const notes = link.includeNotes
      ? await notesPage(s.database, link.orgId, "signal", link.signalId)
      : undefined;
    return htmlResponse(<SharedSignalPage signal={signal} notes={notes} expiresAt={link.expiresAt} />, 200, {
      "cache-control": "no-store",
      "x-robots-tag": "noindex, nofollow",
      // The token is in the address: never send it on to the evidence sites.
      "referrer-policy": "no-referrer",
    });
  });
}
