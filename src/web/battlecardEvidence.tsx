// What a battlecard rests on, for the screen: the sources it cites, and for each line who wrote it (the team, or
// Rivals from a signal or a field of the dossier) with its source and date. Internal bookkeeping of the card's
// evidence (the composer's method, ids, counts) stays in the API.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { label } from "../domain/vocabulary.ts";
import { EvidenceList, ExternalLink, Time } from "./components.tsx";
import { Html } from "./layout.tsx";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const SECTION: Record<string, string> = {
  overview: "Overview",
  strengths: "Strength",
  weaknesses: "Weakness",
  talk_tracks: "Talk track",
  landmines: "Landmine",
  recent_moves: "Recent move",
};
/** "reads.pricing" → "the dossier's pricing". */
const field = (f: string) => `the dossier's ${label(f.replace(/^reads\./, "")).toLowerCase()}`;

export function BattlecardEvidence({ evidence }: { evidence: unknown }): JSX.Element {
  const ev = obj(evidence);
  const sources = Array.isArray(ev.sources) ? ev.sources.map(obj) : [];
  const lines = (Array.isArray(ev.lines) ? ev.lines.map(obj) : []).filter((l) => l.section !== "overview");
  if (!sources.length && !lines.length) return "";
  return (
    <section aria-labelledby="evidence-h">
      <h2 id="evidence-h">Evidence</h2>
      {sources.length ? (
        <EvidenceList
          items={sources.map((x) => ({
            source_title: typeof x.title === "string" ? x.title : undefined,
            source_url: typeof x.url === "string" ? x.url : undefined,
            observed_at: typeof x.observed_at === "string" ? x.observed_at : undefined,
          }))}
        />
      ) : (
        ""
      )}
      {lines.length ? (
        <details class="line-trace">
          <summary>What each line rests on</summary>
          <ul>
            {lines.map((l) => (
              <li>
                <span class="muted small" safe>{`${SECTION[String(l.section)] ?? String(l.section)}: `}</span>
                <span safe>{String(l.text ?? "")}</span>
                <span class="muted small">
                  {" — "}
                  {l.by === "team" ? (
                    "written by the team"
                  ) : typeof l.signal_id === "number" ? (
                    <>
                      <a href={`/app/signals/${l.signal_id}`}>the signal</a>
                      {typeof l.source_url === "string" ? (
                        <>
                          {", "}
                          <ExternalLink href={l.source_url} text={new URL(l.source_url).hostname} />
                        </>
                      ) : (
                        ""
                      )}
                      {typeof l.observed_at === "string" ? (
                        <>
                          {", seen "}
                          <Time ts={l.observed_at} />
                        </>
                      ) : (
                        ""
                      )}
                    </>
                  ) : typeof l.dossier_field === "string" ? (
                    Html.escapeHtml(`from ${field(l.dossier_field)}`)
                  ) : (
                    "written by Rivals"
                  )}
                </span>
              </li>
            ))}
          </ul>
        </details>
      ) : (
        ""
      )}
    </section>
  );
}
