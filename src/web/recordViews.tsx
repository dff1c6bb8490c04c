// Competitors, digests and battlecards as pages: the record, its evidence and links to what it names.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */

import type { PreviousVersion } from "../db/queries/battlecardVersions.ts";
import type { CompareSignal } from "../db/queries/compare.ts";
import type { NoteView } from "../db/queries/engagement.ts";
import { sentences } from "../domain/prose.ts";
import { RESEARCH_READ_DOMAINS } from "../domain/researchTypes.ts";
import { label } from "../domain/vocabulary.ts";
import { EditCard } from "./battlecardEdit.tsx";
import { BattlecardEvidence } from "./battlecardEvidence.tsx";
import { BattlecardChanges, MarkdownCopy, orderedSections, TeamNotes } from "./battlecardExtras.tsx";
import { ProposalPanel } from "./battlecardProposal.tsx";
import { ExternalLink, Facts, Time, text, Value } from "./components.tsx";
import {
  AppsView,
  DossierHeader,
  FundingView,
  HiringView,
  IntegrationsView,
  PackagesView,
  Positioning,
  RegulationView,
  ReleaseCadenceView,
  TechStackView,
  Timeline,
} from "./dossier.tsx";
import { Html } from "./layout.tsx";
import { renderMarkdown, stripLeadingTitle } from "./markdown.ts";
import { More, PricingView } from "./pricingView.tsx";
import { SignalCard } from "./signalViews.tsx";

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === "object" && !Array.isArray(v) ? (v as Obj) : {});
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === "string") : []);

export function CompetitorRow({ c }: { c: Obj }): JSX.Element {
  return (
    <tr>
      <td data-label="Name">
        <a href={`/app/competitors/${c.id}`} safe>
          {String(c.name)}
        </a>
      </td>
      <td data-label="Category" safe>
        {String(c.category ?? "")}
      </td>
      <td data-label="Watch" safe>
        {String(c.watch ?? "")}
      </td>
      <td data-label="Website">{c.website_url ? <ExternalLink href={c.website_url} /> : ""}</td>
      <td data-label="Tracked since">{c.tracked_since ? <Time ts={c.tracked_since} /> : ""}</td>
    </tr>
  );
}

export function CompetitorList({ competitors }: { competitors: Obj[] }): JSX.Element {
  if (competitors.length === 0) return <p class="muted">No competitors are tracked yet.</p>;
  return (
    <div class="scroll">
      <table class="stack">
        <thead>
          <tr>
            <th>Name</th>
            <th>Category</th>
            <th>Watch</th>
            <th>Website</th>
            <th>Tracked since</th>
          </tr>
        </thead>
        <tbody>
          {competitors.map((c) => (
            <CompetitorRow c={c} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

export interface DossierExtras {
  now: Date;
  org: string;
  checkedAt?: string;
  /** Where the competitor's stored icon is served, when it has one. */
  iconUrl?: string;
  trendSignal?: CompareSignal;
  timeline: { signals: Obj[]; categories: string[] };
  /** The timeline's category filter. */
  tcat?: string;
}

/** Titles and views of the read domains research fills; the others are collapsed under "More research". */
const READ_VIEWS: Record<string, [string, (v: Obj, c: Obj, x: DossierExtras) => JSX.Element]> = {
  pricing: ["Pricing", (v, _c, x) => <PricingView pricing={v} signals={x.timeline.signals} />],
  hiring: ["Hiring", (v, _c, x) => <HiringView hiring={v} trendSignal={x.trendSignal} />],
  product: ["Product", (v) => <Value value={v} />],
  tech_stack: ["Tech stack", (v) => <TechStackView tech={v} />],
  integrations: ["Integrations", (v) => <IntegrationsView integ={v} />],
  release_cadence: ["Release cadence", (v) => <ReleaseCadenceView rel={v} />],
  packages: ["Packages", (v) => <PackagesView packages={v} />],
  apps: ["Apps", (v) => <AppsView apps={v} />],
  regulation: ["Security and compliance", (v) => <RegulationView reg={v} />],
  funding: ["Funding and ownership", (v, c) => <FundingView funding={v} ownership={obj(c.ownership)} />],
};

export function CompetitorView({
  c,
  x,
  children,
}: {
  c: Obj;
  x: DossierExtras;
  /** Shown under the header (research and monitoring state). */
  children?: JSX.Element | JSX.Element[];
}): JSX.Element {
  const hq = obj(c.headquarters);
  const own = obj(c.ownership);
  const ws = obj(c.workspace);
  const reads = obj(c.reads);
  const links = obj(c.links);
  const urls = Object.entries(obj(c.urls));
  const fresh = obj(c.freshness);
  const fortnight = obj(reads.fortnight);
  const otherReads = Object.entries(reads).filter(([k]) => k !== "positioning" && k !== "fortnight");
  // The domains research fills have their own view; others (imported, or newer than this page) are collapsed.
  const knownReads = otherReads.filter(([k]) => (RESEARCH_READ_DOMAINS as readonly string[]).includes(k));
  const unknownReads = otherReads.filter(([k]) => !(RESEARCH_READ_DOMAINS as readonly string[]).includes(k));
  return (
    <article class="dossier">
      <DossierHeader c={c} checkedAt={x.checkedAt} now={x.now} iconUrl={x.iconUrl} />
      {children as "safe"}
      {c.description ? (
        <p class="lead" safe>
          {String(c.description)}
        </p>
      ) : (
        ""
      )}
      <Positioning text={reads.positioning} source={c.website_url} />
      <p class="actions">
        {links.battlecard_id !== undefined ? (
          <a href={`/app/battlecards/${links.battlecard_id}`}>Battlecard</a>
        ) : (
          ""
        )}
        <a href={`/app?competitor=${c.id}`}>All signals</a>
      </p>
      <h2>Company</h2>
      <Facts
        rows={[
          ["Website", c.website_url ? <ExternalLink href={c.website_url} /> : undefined],
          ["Category", text(c.category)],
          ["Industry", text(c.industry)],
          ["Company type", text(c.company_type)],
          ["Business model", text(c.business_model)],
          ["Company size", typeof c.company_size === "number" ? String(c.company_size) : undefined],
          ["Founded", typeof c.founding_year === "number" ? String(c.founding_year) : undefined],
          ["Headquarters", text([hq.city, hq.country].filter(Boolean).join(", "))],
          ["Target customer", text(c.target_customer)],
          [
            "Ownership",
            text(
              [
                own.type,
                own.parent_company_name ? `part of ${own.parent_company_name}` : "",
                own.public === true ? `public${own.ticker ? ` (${own.ticker})` : ""}` : "",
              ]
                .filter(Boolean)
                .join(", "),
            ),
          ],
          ["Watch", text(c.watch)],
          ["Priority", typeof c.priority === "number" ? String(c.priority) : undefined],
          ["Tracked since", c.tracked_since ? <Time ts={c.tracked_since} /> : undefined],
          ["Relative risk", text(ws.relative_risk)],
          ["Relative opportunity", text(ws.relative_opportunity)],
          ["ICP overlap", ws.icp_overlap ? <Value value={ws.icp_overlap} /> : undefined],
        ]}
      />
      {urls.length ? (
        <>
          <h2>Links</h2>
          <ul class="links">
            {urls.map(([k, u]) => (
              <li>
                <span safe>{k}</span>: <ExternalLink href={u} />
              </li>
            ))}
          </ul>
        </>
      ) : (
        ""
      )}
      {fortnight.sentences ? (
        <>
          <h2>Last two weeks</h2>
          {fortnight.written_at ? (
            <p class="muted small">
              Written <Time ts={fortnight.written_at} />
            </p>
          ) : (
            ""
          )}
          <ul>
            {(Array.isArray(fortnight.sentences) ? fortnight.sentences : []).map((s) => (
              <li safe>{String(obj(s).text ?? "")}</li>
            ))}
          </ul>
        </>
      ) : (
        ""
      )}
      {otherReads.length ? (
        <>
          <h2>Research</h2>
          {knownReads.map(([k, v]) => (
            <section class="read" id={`read-${k}`}>
              <h3 safe>{READ_VIEWS[k]?.[0] ?? k.replaceAll("_", " ")}</h3>
              {READ_VIEWS[k] && obj(v) === v ? READ_VIEWS[k][1](v as Obj, c, x) : <Value value={v} />}
            </section>
          ))}
          <More value={Object.fromEntries(unknownReads)} label="More research" />
        </>
      ) : (
        ""
      )}
      <Timeline
        competitorId={Number(c.id)}
        signals={x.timeline.signals}
        categories={x.timeline.categories}
        active={x.tcat}
        org={x.org}
      />
      <p class="muted small">
        {fresh.state_updated_at ? (
          <>
            Updated <Time ts={fresh.state_updated_at} />.{" "}
          </>
        ) : (
          ""
        )}
        API: <code safe>{`GET /api/v1/competitors/${c.id}`}</code>
      </p>
      <script src="/assets/page.js" defer></script>
    </article>
  );
}

export function DigestRow({ d }: { d: Obj }): JSX.Element {
  return (
    <article class="card">
      <h3>
        <a href={`/app/digests/${encodeURIComponent(String(d.slug ?? d.id))}`} safe>
          {String(d.title ?? d.headline ?? `Digest ${d.id}`)}
        </a>
      </h3>
      <p class="muted small">
        <span safe>{label(String(d.type ?? ""))}</span>
        {d.coverage_period_start || d.coverage_period_end ? (
          <>
            {" · "}
            <Time ts={d.coverage_period_start} /> – <Time ts={lastDay(d.coverage_period_end)} />
          </>
        ) : (
          ""
        )}
      </p>
      {d.headline && d.title ? <p safe>{String(d.headline)}</p> : ""}
    </article>
  );
}

/** A period's end at midnight UTC is the start of the next day: a reader is shown the last day it covers. */
function lastDay(end: unknown): unknown {
  if (typeof end !== "string" || !/T00:00(?::00(?:\.0+)?)?Z$/.test(end)) return end;
  const t = Date.parse(end);
  return Number.isNaN(t) ? end : new Date(t - 86_400_000).toISOString().slice(0, 10);
}

/** A Markdown text as words only (links, escapes and emphasis gone, white space collapsed): what a field is
 * compared with to tell whether the Markdown already says it. */
function markdownWords(md: string): string {
  return md
    .replace(/\[([^\]]*)\]\([^)\s]*\)/g, "$1")
    .replace(/\\(.)/g, "$1")
    .replace(/[*_#>]/g, "")
    .replace(/\s+/g, " ")
    .trim();
}

export function DigestView({ d, signals }: { d: Obj; signals: Obj[] }): JSX.Element {
  const items = Array.isArray(d.items) ? d.items : [];
  const md = typeof d.markdown === "string" && d.markdown.trim() ? d.markdown : "";
  // What the Markdown already says is not printed again beside it.
  const said = markdownWords(md);
  const unsaid = (v: unknown) =>
    typeof v === "string" &&
    v.trim() !== "" &&
    !sentences(v).every((x) => said.includes(markdownWords(x).replace(/[.!?…]+$/, "")))
      ? v
      : undefined;
  const headline = d.title ? unsaid(d.headline) : undefined;
  const tldr = unsaid(d.tldr);
  const watch = unsaid(d.what_to_watch);
  const linked = md !== "" && signals.every((s) => new RegExp(`/app/signals/${s.id}\\)`).test(md));
  return (
    <article>
      <p class="muted small">
        <a href="/app/digests">Digests</a>
      </p>
      <h1 safe>{String(d.title ?? d.headline ?? `Digest ${d.id}`)}</h1>
      {headline ? (
        <p class="lead" safe>
          {headline}
        </p>
      ) : (
        ""
      )}
      <Facts
        rows={[
          ["Type", text(label(typeof d.type === "string" ? d.type : ""))],
          [
            "Period",
            d.coverage_period_start || d.coverage_period_end ? (
              <>
                <Time ts={d.coverage_period_start} /> – <Time ts={lastDay(d.coverage_period_end)} />
              </>
            ) : undefined,
          ],
          ["Generated", d.generated_at ? <Time ts={d.generated_at} /> : undefined],
        ]}
      />
      {tldr ? (
        <>
          <h2>TL;DR</h2>
          <p safe>{tldr}</p>
        </>
      ) : (
        ""
      )}
      {watch ? (
        <>
          <h2>What to watch</h2>
          <p safe>{watch}</p>
        </>
      ) : (
        ""
      )}
      {md ? (
        <section class="markdown">{renderMarkdown(stripLeadingTitle(md, d.title)) as "safe"}</section>
      ) : (
        ""
      )}
      {items.length && !md ? (
        <>
          <h2>Items</h2>
          <ol class="items">
            {items.map((it) => (
              <li>
                <Value value={it} />
              </li>
            ))}
          </ol>
        </>
      ) : (
        ""
      )}
      {linked ? (
        ""
      ) : (
        <>
          <h2>Signals covered</h2>
          {signals.length ? signals.map((s) => <SignalCard signal={s} />) : <p class="muted">None.</p>}
        </>
      )}
      <p class="muted small">
        API: <code safe>{`GET /api/v1/digests/${d.slug ?? d.id}`}</code>
      </p>
    </article>
  );
}

function Section({ title, value }: { title: string; value: unknown }): JSX.Element {
  if (value === undefined || value === null || value === "") return "";
  const list = strs(value);
  return (
    <section>
      <h2 safe>{title}</h2>
      {typeof value === "string" ? (
        <p safe>{value}</p>
      ) : Array.isArray(value) && list.length === value.length ? (
        <ul>
          {list.map((x) => (
            <li safe>{x}</li>
          ))}
        </ul>
      ) : (
        <Value value={value} />
      )}
    </section>
  );
}

export function BattlecardRow({ b, proposedAt }: { b: Obj; proposedAt?: string }): JSX.Element {
  return (
    <tr>
      <td>
        <a href={`/app/battlecards/${b.id}`} safe>
          {String(b.competitor_name ?? `Battlecard ${b.id}`)}
        </a>
      </td>
      <td>{b.generated_at ? <Time ts={b.generated_at} /> : ""}</td>
      <td>
        {proposedAt ? (
          <a href={`/app/battlecards/${b.id}#proposal-h`}>
            {"Update proposed "}
            <Time ts={proposedAt} />
          </a>
        ) : (
          ""
        )}
      </td>
    </tr>
  );
}

export interface BattlecardExtras {
  /** The note form's workspace and token. */
  org: string;
  csrf: string;
  notes: NoteView[];
  notesTotal: number;
  previous?: PreviousVersion;
  markdown: string;
  /** The engine's pending update of the card, if any. */
  proposal?: Obj;
}

export function BattlecardView({ b, extras }: { b: Obj; extras: BattlecardExtras }): JSX.Element {
  // The team's notes are shown as notes (TeamNotes), never as one of the card's sections.
  const shown = orderedSections(obj(b.sections));
  return (
    <article class="battlecard">
      <p class="muted small no-print">
        <a href="/app/battlecards">Battlecards</a>
      </p>
      <h1>
        Battlecard: <span safe>{String(b.competitor_name ?? `competitor ${b.competitor_id}`)}</span>
      </h1>
      <p class="muted">
        <a href={`/app/competitors/${b.competitor_id}`} class="no-print">
          Competitor page
        </a>
        {b.generated_at ? (
          <>
            <span class="no-print"> · </span>
            {"Updated "}
            <Time ts={b.generated_at} />
          </>
        ) : (
          ""
        )}
      </p>
      <p class="actions no-print">
        <button type="button" class="secondary" data-print hidden>
          Print
        </button>
      </p>
      {shown.map(([, title, v]) => (
        <Section title={title} value={v} />
      ))}
      <ProposalPanel id={b.id} proposal={extras.proposal} org={extras.org} csrf={extras.csrf} />
      <EditCard id={b.id} sections={obj(b.sections)} org={extras.org} csrf={extras.csrf} />
      <TeamNotes
        notes={extras.notes}
        total={extras.notesTotal}
        form={{
          competitorId: b.competitor_id,
          org: extras.org,
          csrf: extras.csrf,
          back: `/app/battlecards/${b.id}?org=${encodeURIComponent(extras.org)}`,
        }}
      />
      {/* The method, the diff and the raw records are for the screen; the printed card stays within two pages. */}
      <div class="no-print">
        <BattlecardChanges previous={extras.previous} current={b} />
        <BattlecardEvidence evidence={b.evidence} />
      </div>
      <MarkdownCopy id={b.id} markdown={extras.markdown} />
      <p class="muted small no-print">
        API: <code safe>{`GET /api/v1/battlecards/${b.id}`}</code>
      </p>
      <script src="/assets/page.js" defer></script>
    </article>
  );
}
