// Editing a battlecard on its page (screen only): one box per section, a line per item. What a member changes is
// the team's from then on; no cycle or generate_battlecard rewrites it (domain/battlecardProposals.ts
// decideEditCard, POST /app/battlecards/{id}/edit).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { EDIT_MAX_LINES } from "../domain/battlecardProposals.ts";
import { SECTION_ORDER } from "./battlecardExtras.tsx";
import { Csrf } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;
const text = (v: unknown) =>
  typeof v === "string" ? v : Array.isArray(v) ? v.filter((x) => typeof x === "string").join("\n") : "";

export function EditCard(p: { id: unknown; sections: Obj; org: string; csrf: string }): JSX.Element {
  return (
    <details class="edit-card no-print">
      <summary>Edit the card</summary>
      <form method="post" action={`/app/battlecards/${p.id}/edit`} class="stack">
        <Csrf token={p.csrf} />
        <input type="hidden" name="org" value={p.org} />
        <input
          type="hidden"
          name="back"
          value={`/app/battlecards/${p.id}?org=${encodeURIComponent(p.org)}`}
        />
        <p class="muted small">
          {Html.escapeHtml(
            `One line per item, at most ${EDIT_MAX_LINES} a section. What you change is kept as the team's words: a monitoring cycle only proposes changes to it, and generating the card again leaves it as written.`,
          )}
        </p>
        {SECTION_ORDER.map(([k, title]) => (
          <>
            <label for={`edit-${k}`} safe>
              {title}
            </label>
            <textarea id={`edit-${k}`} name={`section_${k}`} rows={k === "overview" ? "3" : "4"} safe>
              {text(p.sections[k])}
            </textarea>
          </>
        ))}
        <button type="submit">Save the card</button>
      </form>
    </details>
  );
}
