// The engine's proposed update of a battlecard, on its page: the lines a cycle would add (each with its source
// and date) and the lines it would drop (with the newer fact that contradicts them), and the buttons a member
// accepts or dismisses it with (/app/battlecards/{id}/proposal, domain/battlecardProposals.ts). Screen only.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Csrf, Time } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;
const TITLES: Record<string, string> = {
  overview: "Overview",
  strengths: "Strengths",
  weaknesses: "Weaknesses",
  talk_tracks: "Talk tracks",
  landmines: "Landmines",
  recent_moves: "Recent moves",
};
const list = (v: unknown): Obj[] =>
  Array.isArray(v) ? v.filter((x): x is Obj => !!x && typeof x === "object") : [];

export function ProposalPanel(p: { id: unknown; proposal?: Obj; org: string; csrf: string }): JSX.Element {
  const { proposal } = p;
  if (!proposal) return "";
  const add = list(proposal.add);
  const drop = list(proposal.drop);
  const proposedAt = typeof proposal.proposed_at === "string" ? proposal.proposed_at : "";
  const form = (decision: "accept" | "dismiss", label: string, cls?: string) => (
    <form method="post" action={`/app/battlecards/${p.id}/proposal`} class="inline">
      <Csrf token={p.csrf} />
      <input type="hidden" name="org" value={p.org} />
      <input type="hidden" name="proposed_at" value={proposedAt} />
      <input type="hidden" name="decision" value={decision} />
      <input type="hidden" name="back" value={`/app/battlecards/${p.id}?org=${encodeURIComponent(p.org)}`} />
      <button type="submit" class={cls}>
        {label}
      </button>
    </form>
  );
  return (
    <>
      {/* On paper, a line saying the card has a review pending (the proposal itself is for the screen). */}
      <p class="print-only muted small">
        {"Newer facts found "}
        {proposedAt ? <Time ts={proposedAt} /> : ""}
        {" wait for a member's review in Rivals; this card does not include them yet."}
      </p>
      <section class="proposal no-print" aria-labelledby="proposal-h">
        <h2 id="proposal-h">Proposed update</h2>
        <p class="muted small">
          Rivals found newer facts
          {proposedAt ? (
            <>
              {" on "}
              <Time ts={proposedAt} />
            </>
          ) : (
            ""
          )}
          . The card above is unchanged until a member accepts; the team's own lines are never changed without
          it.
        </p>
        {add.length ? (
          <>
            <h3>Lines to add</h3>
            <ul class="changes-list">
              {add.map((l) => (
                <li>
                  <ins>
                    <span class="sr-only">Add: </span>
                    <span safe>{`${TITLES[String(l.section)] ?? String(l.section)}: ${String(l.text)}`}</span>
                  </ins>
                  {typeof l.source_url === "string" && /^https?:\/\//.test(l.source_url) ? (
                    <span class="muted small">
                      {" — "}
                      <a href={l.source_url} rel="noopener nofollow" safe>
                        {new URL(l.source_url).hostname}
                      </a>
                    </span>
                  ) : (
                    ""
                  )}
                </li>
              ))}
            </ul>
          </>
        ) : (
          ""
        )}
        {drop.length ? (
          <>
            <h3>Lines to drop</h3>
            <ul class="changes-list">
              {drop.map((l) => (
                <li>
                  <del>
                    <span class="sr-only">Drop: </span>
                    <span safe>{`${TITLES[String(l.section)] ?? String(l.section)}: ${String(l.text)}`}</span>
                  </del>
                  {typeof l.because === "string" ? (
                    <span class="muted small" safe>{` — ${l.because}`}</span>
                  ) : (
                    ""
                  )}
                </li>
              ))}
            </ul>
          </>
        ) : (
          ""
        )}
        <p class="actions">
          {form("accept", "Accept the update")} {form("dismiss", "Dismiss", "secondary")}
        </p>
      </section>
    </>
  );
}
