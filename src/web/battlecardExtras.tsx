// What a battlecard page adds to the card itself: the version before it (from the battlecard's own event stream)
// and what changed since, the team's notes shown as notes (never among the sections' facts), and the card as
// Markdown to copy or download.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { PreviousVersion } from "../db/queries/battlecardVersions.ts";
import type { NoteView } from "../db/queries/engagement.ts";
import { formatDay } from "../domain/dates.ts";
import { NOTE_MAX_UTF16 } from "../domain/engagement.ts";
import { mdEscape, mdUrl } from "../domain/markdown.ts";
import { Csrf, TeamNote, Time } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);

/** Sections in the order the card shows them; `team_framing` is the notes, shown apart. */
export const SECTION_ORDER: [string, string][] = [
  ["overview", "Overview"],
  ["strengths", "Strengths"],
  ["weaknesses", "Weaknesses"],
  ["talk_tracks", "Talk tracks"],
  ["landmines", "Landmines"],
  ["recent_moves", "Recent moves"],
];
export const NOTE_SECTIONS = new Set(["team_framing"]);
const titleOf = (k: string) =>
  SECTION_ORDER.find(([key]) => key === k)?.[1] ??
  k.replaceAll("_", " ").replace(/^./, (c) => c.toUpperCase());

/** The sections worth showing, in order: known ones first, then any others, never the team's notes. */
export function orderedSections(sections: Obj): [string, string, unknown][] {
  const known = SECTION_ORDER.filter(([k]) => sections[k] !== undefined).map(([k, t]) => [k, t, sections[k]]);
  const others = Object.keys(sections)
    .filter((k) => !SECTION_ORDER.some(([key]) => key === k) && !NOTE_SECTIONS.has(k))
    .map((k) => [k, titleOf(k), sections[k]]);
  return [...known, ...others] as [string, string, unknown][];
}

const lines = (v: unknown): string[] =>
  typeof v === "string"
    ? [v]
    : Array.isArray(v)
      ? v.map((x) => (typeof x === "string" ? x : JSON.stringify(x)))
      : isObj(v)
        ? Object.entries(v).map(([k, x]) => `${k}: ${typeof x === "string" ? x : JSON.stringify(x)}`)
        : [];

export interface SectionChange {
  title: string;
  added: string[];
  removed: string[];
}

/** Per section, the lines that came and went (sections are lists of sentences, or one paragraph). */
export function sectionChanges(before: Obj, after: Obj): SectionChange[] {
  const keys = [...new Set([...orderedSections(after), ...orderedSections(before)].map(([k]) => k))];
  const out: SectionChange[] = [];
  for (const k of keys) {
    const was = lines(before[k]);
    const is = lines(after[k]);
    const added = is.filter((l) => !was.includes(l));
    const removed = was.filter((l) => !is.includes(l));
    if (added.length || removed.length) out.push({ title: titleOf(k), added, removed });
  }
  return out;
}

export function BattlecardChanges({ previous, current }: { previous?: PreviousVersion; current: Obj }) {
  if (!previous)
    return (
      <section class="changes no-print" aria-labelledby="changes-h">
        <h2 id="changes-h">What changed</h2>
        <p class="muted">This is the first version of this battlecard.</p>
      </section>
    );
  const changes = sectionChanges(previous.sections, isObj(current.sections) ? current.sections : {});
  return (
    <section class="changes" aria-labelledby="changes-h">
      <h2 id="changes-h">What changed</h2>
      <p class="muted small">
        Since the previous version
        {previous.generated_at ? (
          <>
            {" of "}
            <Time ts={previous.generated_at} />
          </>
        ) : (
          ""
        )}
        :
      </p>
      {changes.length ? (
        <dl class="diff">
          {changes.map((c) => (
            <>
              <dt safe>{c.title}</dt>
              <dd>
                <ul class="changes-list">
                  {c.added.map((l) => (
                    <li>
                      <ins>
                        <span class="sr-only">Added: </span>
                        <span safe>{l}</span>
                      </ins>
                    </li>
                  ))}
                  {c.removed.map((l) => (
                    <li>
                      <del>
                        <span class="sr-only">Removed: </span>
                        <span safe>{l}</span>
                      </del>
                    </li>
                  ))}
                </ul>
              </dd>
            </>
          ))}
        </dl>
      ) : (
        <p class="muted">No section changed.</p>
      )}
    </section>
  );
}

/** The team's notes on the competitor: the team's view, set apart from the card's facts. */
export function TeamNotes(p: {
  notes: NoteView[];
  total: number;
  /** The note form: the competitor, the workspace, the token and this page. */
  form?: { competitorId: unknown; org: string; csrf: string; back: string };
}): JSX.Element {
  const { notes, total, form } = p;
  return (
    <aside class={notes.length ? "team-notes" : "team-notes no-print"} aria-labelledby="notes-h">
      <h2 id="notes-h">Team notes</h2>
      <p class="muted small">
        What the team wrote: their view, not verified fact. The card's sections never use it.
      </p>
      {notes.length ? (
        <ul>
          {notes.map((n) => (
            <TeamNote note={n} />
          ))}
        </ul>
      ) : (
        <p class="muted">No notes yet.</p>
      )}
      {total > notes.length ? (
        <p class="muted small">{Html.escapeHtml(`The newest ${notes.length} of ${total} notes.`)}</p>
      ) : (
        ""
      )}
      {form ? (
        <form
          method="post"
          action={`/app/competitors/${form.competitorId}/battlecard-notes`}
          class="stack no-print"
        >
          <Csrf token={form.csrf} />
          <input type="hidden" name="org" value={form.org} />
          <input type="hidden" name="back" value={form.back} />
          <label for="bc-note">Add a note for the team</label>
          <textarea id="bc-note" name="body" rows="2" maxlength={String(NOTE_MAX_UTF16)} required></textarea>
          <button type="submit">Add note</button>
        </form>
      ) : (
        ""
      )}
    </aside>
  );
}

/** How many team notes and sources the Markdown lists (the card stays within two printed pages). */
export const MD_NOTES = 3;
export const MD_SOURCES = 8;

/** The card as Markdown: title, when it was generated, each section, the team's notes marked as notes, and the
 * sources it cites. Text is escaped so a stored value cannot become a link or markup it did not write. */
export function battlecardMarkdown(b: Obj, notes: NoteView[], base: string): string {
  const name = String(b.competitor_name ?? `competitor ${b.competitor_id}`);
  const out: string[] = [`# Battlecard: ${mdEscape(name)}`, ""];
  if (typeof b.generated_at === "string") out.push(`Generated ${formatDay(b.generated_at)}.`, "");
  const sections = isObj(b.sections) ? b.sections : {};
  for (const [, title, v] of orderedSections(sections)) {
    out.push(`## ${title}`, "");
    if (typeof v === "string") out.push(mdEscape(v), "");
    else {
      for (const l of lines(v)) out.push(`- ${mdEscape(l)}`);
      out.push("");
    }
  }
  if (notes.length) {
    out.push("## Team notes (the team's view, not verified)", "");
    // The newest three: the card stays within two printed pages; the page lists them all.
    for (const n of notes.slice(-MD_NOTES))
      out.push(
        `> ${mdEscape(n.body).replace(/\n/g, "\n> ")}`,
        `> — ${mdEscape(n.author_name ?? "a member")}, ${formatDay(n.created_at)}`,
        "",
      );
  }
  const ev = isObj(b.evidence) ? b.evidence : {};
  const sources = (Array.isArray(ev.sources) ? ev.sources : []).filter(isObj);
  if (sources.length) {
    out.push("## Sources", "");
    sources.slice(0, MD_SOURCES).forEach((s, i) => {
      const url = typeof s.url === "string" && /^https?:\/\//.test(s.url) ? s.url : undefined;
      const title = typeof s.title === "string" ? mdEscape(s.title) : (url ?? "source");
      out.push(`${i + 1}. ${url ? `[${title}](<${mdUrl(url)}>)` : title}`);
    });
    out.push("");
  }
  out.push(`Source: ${base}/app/battlecards/${b.id}`);
  return `${out.join("\n")}\n`;
}

export function MarkdownCopy({ id, markdown }: { id: unknown; markdown: string }): JSX.Element {
  return (
    <details class="markdown-copy no-print">
      <summary>Markdown</summary>
      <p class="actions">
        <button type="button" class="secondary" data-copy="battlecard-md" hidden>
          Copy as Markdown
        </button>
        <a href={`/app/battlecards/${id}/markdown`} download={`battlecard-${id}.md`}>
          Download .md
        </a>
      </p>
      <label for="battlecard-md" class="muted small">
        The battlecard as Markdown
      </label>
      <textarea id="battlecard-md" readonly rows="12" class="md" safe>
        {markdown}
      </textarea>
    </details>
  );
}

/** The pages' progressive enhancement (served as /assets/page.js): reloading a page that follows running work
 * (`data-refresh`, seconds: the first-run page while research runs), list filters (the competitor page's
 * integrations; without the script the whole list shows), copy and print buttons, hidden until the
 * script can make them work; without it the Markdown can still be selected or downloaded, and the page printed
 * from the browser's menu. */
export const PAGE_SCRIPT = `const refresh = document.querySelector("[data-refresh]");
if (refresh) setTimeout(() => location.reload(), Number(refresh.dataset.refresh) * 1000);
for (const input of document.querySelectorAll("input[data-filter]")) {
  const list = document.getElementById(input.dataset.filter);
  if (!list) continue;
  input.addEventListener("input", () => {
    const q = input.value.trim().toLowerCase();
    for (const li of list.children) li.hidden = q !== "" && !li.textContent.toLowerCase().includes(q);
  });
}
for (const b of document.querySelectorAll("button[data-print]")) {
  b.hidden = false;
  b.addEventListener("click", () => window.print());
}
for (const b of document.querySelectorAll("button[data-copy]")) {
  const source = document.getElementById(b.dataset.copy);
  if (!source || !navigator.clipboard) continue;
  b.hidden = false;
  b.addEventListener("click", async () => {
    try { await navigator.clipboard.writeText(source.value); b.textContent = "Copied"; }
    catch { b.textContent = "Copy failed: select the text below"; }
  });
}
`;
