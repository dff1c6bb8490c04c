// The parts of a competitor's page that read its research as a dossier: the header (name, category, website,
// watch, risk and opportunity, when it was last checked), positioning as a quote with its source, hiring by
// department with its trend, the tech stack as grouped chips, integrations as a count and a searchable list,
// release cadence, security and compliance, funding and ownership — each fact linked to the page it was read
// from — and the competitor's timeline of signals, filterable by category.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { CompareSignal } from "../db/queries/compare.ts";
import { label } from "../domain/vocabulary.ts";
import { hiringPageUrl } from "../engine/sources/jobBoards.ts";
import { trend } from "./compareModel.ts";
import { ExternalLink, Severity, Time } from "./components.tsx";
import { formatTime, isHttpUrl } from "./http.ts";
import { Html } from "./layout.tsx";
import { cadenceHref, cadenceSource } from "./releaseLinks.ts";

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v.trim() ? v.trim() : undefined);
const num = (v: unknown): number | undefined => (typeof v === "number" && Number.isFinite(v) ? v : undefined);
const strs = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];

/** `2026-11-20T10:00:00Z` an hour before now → "1 h ago". */
export function ago(ts: string, now: Date): string {
  const ms = now.getTime() - Date.parse(ts);
  if (Number.isNaN(ms)) return "";
  const min = Math.floor(ms / 60_000);
  if (min < 1) return "just now";
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ago`;
  return `${Math.floor(h / 24)} days ago`;
}

/** "Source" linking to where a fact was read, when the read names it. */
function Source({ href, text = "source" }: { href: unknown; text?: string }): JSX.Element {
  if (!isHttpUrl(href)) return "";
  return (
    <span class="muted small">
      {" · "}
      <a href={href} rel="nofollow noopener noreferrer" class="evidence" title={href}>
        {Html.escapeHtml(text)}
      </a>
    </span>
  );
}

export function DossierHeader({
  c,
  checkedAt,
  now,
  iconUrl,
}: {
  c: Obj;
  checkedAt?: string;
  now: Date;
  iconUrl?: string;
}): JSX.Element {
  const ws = isObj(c.workspace) ? c.workspace : {};
  const fresh = isObj(c.freshness) ? c.freshness : {};
  const researched = str(fresh.research_finished_at);
  return (
    <header class="dossier-head">
      <p class="muted small">
        <a href="/app/competitors">Competitors</a>
      </p>
      <h1>
        {iconUrl ? <img class="logo" src={iconUrl} alt="" width="32" height="32" /> : ""}
        <span safe>{String(c.name)}</span>
      </h1>
      <p class="meta">
        {str(c.category) ? (
          <span class="badge" safe>
            {String(c.category)}
          </span>
        ) : (
          ""
        )}
        {c.website_url ? <ExternalLink href={c.website_url} /> : ""}
        {str(c.watch) ? <span safe>{`Watch: ${c.watch}`}</span> : ""}
        {str(ws.relative_risk) ? <span safe>{`Risk: ${ws.relative_risk}`}</span> : ""}
        {str(ws.relative_opportunity) ? <span safe>{`Opportunity: ${ws.relative_opportunity}`}</span> : ""}
      </p>
      <p class="muted small">
        {checkedAt ? (
          <span>
            Checked{" "}
            <time datetime={checkedAt} title={formatTime(checkedAt)} safe>
              {ago(checkedAt, now)}
            </time>
          </span>
        ) : (
          <span>Not checked by a monitoring cycle yet</span>
        )}
        {researched ? (
          <span>
            {" · researched "}
            <time datetime={researched} title={formatTime(researched)} safe>
              {ago(researched, now)}
            </time>
          </span>
        ) : (
          ""
        )}
      </p>
    </header>
  );
}

/** Positioning as a quote, attributed to the page it was read from (the site's home page). */
export function Positioning({ text, source }: { text: unknown; source: unknown }): JSX.Element {
  const t = str(text);
  if (!t) return "";
  return (
    <figure class="positioning">
      <blockquote safe>{t}</blockquote>
      <figcaption class="muted small">
        Its home page{isHttpUrl(source) ? <Source href={source} text={source} /> : ""}
      </figcaption>
    </figure>
  );
}

/** How a job board is named to a reader. */
const BOARDS: Record<string, string> = {
  greenhouse: "Greenhouse",
  lever: "Lever",
  ashby: "Ashby",
  workable: "Workable",
  smartrecruiters: "SmartRecruiters",
  recruitee: "Recruitee",
  personio: "Personio",
};

export function HiringView({
  hiring,
  trendSignal,
}: {
  hiring: Obj;
  trendSignal?: CompareSignal;
}): JSX.Element {
  const roles = num(hiring.open_roles);
  const deps = Object.entries(isObj(hiring.by_department) ? hiring.by_department : {})
    .filter((e): e is [string, number] => typeof e[1] === "number" && e[1] > 0)
    .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const max = Math.max(1, ...deps.map(([, n]) => n));
  const t = trend(trendSignal);
  const locations = strs(hiring.locations);
  const focus = strs(hiring.focus);
  const headcount = num(hiring.estimated_headcount);
  const board = str(hiring.board);
  const where = board ? `its ${BOARDS[board] ?? board} job board` : "job listings";
  // Never an empty section: the count (none open is a fact too), else plainly that it is not known.
  const count =
    roles === undefined
      ? "Open roles: not known (no job board or careers page of this competitor has been read)"
      : roles === 0
        ? `No open roles${board ? ` on ${where}` : ""}`
        : `${roles} open role${roles === 1 ? "" : "s"}`;
  return (
    <div class="hiring">
      <p>
        <strong>{Html.escapeHtml(count)}</strong>
        <Source
          href={typeof hiring.source === "string" ? hiringPageUrl(hiring.source) : hiring.source}
          text={where}
        />
        {t.text ? (
          <>
            {" · trend "}
            <a href={t.href} safe>
              {t.text}
            </a>
          </>
        ) : str(hiring.trend) ? (
          <span safe>{` · trend: ${str(hiring.trend)}`}</span>
        ) : (
          ""
        )}
      </p>
      {focus.length ? <p safe>{`Hiring focus: ${focus.join("; ")}`}</p> : ""}
      {headcount !== undefined ? (
        <p
          class="muted small"
          safe
        >{`About ${headcount.toLocaleString("en-US")} people work there (estimate).`}</p>
      ) : (
        ""
      )}
      {deps.length ? (
        <table class="bars" aria-label="Open roles by department">
          <tbody>
            {deps.map(([d, n]) => (
              <tr>
                <th scope="row" safe>
                  {d}
                </th>
                <td>
                  <span class="bar" style={`width:${Math.max(4, Math.round((n / max) * 100))}%`}></span>
                  <span class="n">{String(n)}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        ""
      )}
      {locations.length ? (
        <p
          class="muted small"
          safe
        >{`Locations: ${locations.slice(0, 12).join("; ")}${locations.length > 12 ? ` and ${locations.length - 12} more` : ""}`}</p>
      ) : (
        ""
      )}
    </div>
  );
}

export function TechStackView({ tech }: { tech: Obj }): JSX.Element {
  const list = (Array.isArray(tech.technologies) ? tech.technologies : []).filter(isObj);
  const groups = new Map<string, Obj[]>();
  for (const t of list) {
    const g = str(t.category) ?? "other";
    groups.set(g, [...(groups.get(g) ?? []), t]);
  }
  if (!groups.size) return "";
  return (
    <dl class="chips">
      {[...groups.entries()]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([g, ts]) => (
          <>
            <dt safe>{label(g)}</dt>
            <dd>
              {ts.map((t) =>
                isHttpUrl(t.page) ? (
                  <a
                    class="chip"
                    href={t.page}
                    rel="nofollow noopener noreferrer"
                    title={`Seen on ${t.page}`}
                    safe
                  >
                    {String(t.name)}
                  </a>
                ) : (
                  <span class="chip" safe>
                    {String(t.name)}
                  </span>
                ),
              )}
            </dd>
          </>
        ))}
    </dl>
  );
}

export function IntegrationsView({ integ }: { integ: Obj }): JSX.Element {
  const names = strs(integ.names);
  const count = num(integ.count) ?? names.length;
  return (
    <div class="integrations">
      <p>
        <strong>{Html.escapeHtml(`${count} integration${count === 1 ? "" : "s"}`)}</strong>
        <Source href={integ.page} text="integrations page" />
      </p>
      {names.length ? (
        <details open={names.length <= 12}>
          <summary>{Html.escapeHtml(`All ${names.length}`)}</summary>
          <label for="integ-filter" class="small">
            Search integrations
          </label>
          <input id="integ-filter" type="search" data-filter="integ-list" autocomplete="off" />
          <ul id="integ-list" class="chiplist">
            {names.map((n) => (
              <li class="chip" safe>
                {n}
              </li>
            ))}
          </ul>
        </details>
      ) : (
        ""
      )}
    </div>
  );
}

export function ReleaseCadenceView({ rel }: { rel: Obj }): JSX.Element {
  const n = num(rel.releases_last_90_days);
  const median = num(rel.median_days_between);
  // Each channel research read (a changelog, a repository's releases, its pre-releases), when there are several.
  const channels = Array.isArray(rel.channels) ? rel.channels.filter(isObj) : [];
  return (
    <>
      <p>
        {n !== undefined ? (
          <strong>{Html.escapeHtml(`${n} release${n === 1 ? "" : "s"} in 90 days`)}</strong>
        ) : (
          ""
        )}
        {median !== undefined ? <span>{Html.escapeHtml(`, typically ${median} days apart`)}</span> : ""}
        {str(rel.last_release_at) ? (
          <span>
            {"; the latest "}
            <Time ts={rel.last_release_at} />
          </span>
        ) : (
          ""
        )}
        <Source href={cadenceHref(rel.source)} text={cadenceSource(rel.source)} />
      </p>
      {channels.length ? (
        <ul class="release-channels">
          {channels.map((ch) => {
            const k = num(ch.releases_last_90_days);
            const m = num(ch.median_days_between);
            return (
              <li>
                <span safe>{str(ch.channel) ?? ""}</span>
                {Html.escapeHtml(
                  `: ${k ?? 0} in 90 days${m !== undefined ? `, typically ${m} days apart` : ""}`,
                )}
                {str(ch.last_release_at) ? (
                  <span>
                    {"; the latest "}
                    <Time ts={ch.last_release_at} />
                  </span>
                ) : (
                  ""
                )}
                <Source href={cadenceHref(ch.source)} text={cadenceSource(ch.source)} />
              </li>
            );
          })}
        </ul>
      ) : (
        ""
      )}
    </>
  );
}

/** The npm packages the site links that are the competitor's: the latest version, a deprecation, last week's
 * downloads. */
export function PackagesView({ packages }: { packages: Obj }): JSX.Element {
  const list = (Array.isArray(packages.packages) ? packages.packages : []).filter(isObj);
  return (
    <ul class="packages">
      {list.map((p) => {
        const downloads = num(p.weekly_downloads);
        return (
          <li>
            <strong safe>{str(p.name) ?? ""}</strong>
            {Html.escapeHtml(` ${str(p.latest) ?? ""}`)}
            {str(p.deprecated) ? <span safe>{` — deprecated: ${str(p.deprecated)}`}</span> : ""}
            {downloads !== undefined
              ? Html.escapeHtml(` · ${downloads.toLocaleString("en-US")} downloads last week`)
              : ""}
            <Source href={p.page} text="npm" />
          </li>
        );
      })}
    </ul>
  );
}

/** The App Store apps the site's badges link: version, rating and its count, the most recent reviews. */
export function AppsView({ apps }: { apps: Obj }): JSX.Element {
  const list = (Array.isArray(apps.apps) ? apps.apps : []).filter(isObj);
  return (
    <ul class="apps">
      {list.map((a) => {
        const rating = num(a.rating);
        const count = num(a.rating_count);
        const reviews = (Array.isArray(a.reviews) ? a.reviews : []).filter(isObj);
        return (
          <li>
            <strong safe>{str(a.name) ?? ""}</strong>
            {str(a.version) ? Html.escapeHtml(` version ${str(a.version)}`) : ""}
            {rating !== undefined
              ? Html.escapeHtml(
                  ` · rated ${rating.toFixed(1)} out of 5${count !== undefined ? ` from ${count.toLocaleString("en-US")} ratings` : ""}`,
                )
              : ""}
            <Source href={a.page} text="App Store" />
            {reviews.length ? (
              <ul class="reviews" aria-label="Most recent reviews">
                {reviews.map((r) => (
                  <li>
                    <span safe>{`${num(r.rating) ?? ""} of 5 stars: “${str(r.title) ?? ""}”`}</span>
                    {str(r.written_at) ? (
                      <span class="muted small">
                        {" "}
                        <Time ts={r.written_at} />
                      </span>
                    ) : (
                      ""
                    )}
                  </li>
                ))}
              </ul>
            ) : (
              ""
            )}
          </li>
        );
      })}
    </ul>
  );
}

export function RegulationView({ reg }: { reg: Obj }): JSX.Element {
  const certs = strs(reg.certifications);
  const sec = isObj(reg.security_txt) ? reg.security_txt : undefined;
  const contacts = strs(sec?.contact);
  const filer = isObj(reg.sec) ? reg.sec : undefined;
  return (
    <div>
      {str(filer?.cik) ? (
        <p class="sec-filer">
          <span safe>{`Files with the SEC (Central Index Key ${str(filer?.cik)})`}</span>
          <Source href={filer?.filings} text="filings on EDGAR" />
          <Source href={filer?.source} text={str(filer?.source_title) ?? "source"} />
        </p>
      ) : (
        ""
      )}
      {certs.length ? (
        <p>
          {certs.map((c) => (
            <span class="chip" safe>
              {c}
            </span>
          ))}
          <Source href={reg.page} text="security page" />
        </p>
      ) : (
        ""
      )}
      {sec ? (
        <p class="small">
          security.txt{contacts.length ? <span safe>{`: contact ${contacts.join(", ")}`}</span> : ""}
          {sec.signed === true ? " (signed)" : ""}
          <Source href={sec.source} text="security.txt" />
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export function FundingView({ funding, ownership }: { funding?: Obj; ownership?: Obj }): JSX.Element {
  const rounds = (Array.isArray(funding?.rounds) ? funding.rounds : []).filter(isObj);
  const own = ownership ?? {};
  const ownText = [
    str(own.type),
    str(own.parent_company_name) ? `part of ${own.parent_company_name}` : undefined,
    own.public === true ? `public${str(own.ticker) ? ` (${own.ticker})` : ""}` : undefined,
  ].filter(Boolean);
  const sources = strs(funding?.sources);
  // A round the sources size differently is one round and a notice (domain/conflicts.ts), never two rounds.
  const conflicts = (Array.isArray(funding?.conflicts) ? funding.conflicts : []).filter(isObj);
  const ceo = isObj(funding?.chief_executive) ? funding.chief_executive : undefined;
  return (
    <div>
      {ownText.length ? <p safe>{`Ownership: ${ownText.join(", ")}`}</p> : ""}
      {str(ceo?.name) ? (
        <p class="chief-executive">
          <span safe>{`Chief executive: ${str(ceo?.name)}`}</span>
          <Source href={ceo?.source} text={str(ceo?.source_title) ?? "source"} />
        </p>
      ) : (
        ""
      )}
      {conflicts.map((c) => (
        <p class="notice conflict" safe>
          {String(c.text ?? "")}
        </p>
      ))}
      {rounds.length ? (
        <ul>
          {rounds.map((r) => (
            <li>
              {str(r.text) ? (
                <q safe>{String(r.text)}</q>
              ) : (
                <span safe>{String(r.round ?? r.amount ?? "")}</span>
              )}
              {str(r.date) ? (
                <span class="muted small">
                  {" "}
                  <Time ts={r.date} />
                </span>
              ) : (
                ""
              )}
              <Source href={r.source} />
            </li>
          ))}
        </ul>
      ) : (
        ""
      )}
      {str(funding?.ownership_summary) ? (
        <p>
          <q safe>{String(funding?.ownership_summary)}</q>
          <Source href={sources[0]} />
        </p>
      ) : (
        ""
      )}
      {str(funding?.estimated_revenue_text) ? (
        <p>
          <q safe>{String(funding?.estimated_revenue_text)}</q>
        </p>
      ) : (
        ""
      )}
    </div>
  );
}

export function Timeline(p: {
  competitorId: number;
  signals: Obj[];
  categories: string[];
  active?: string;
  org: string;
}): JSX.Element {
  const href = (cat?: string) =>
    `/app/competitors/${p.competitorId}?org=${encodeURIComponent(p.org)}${cat ? `&tcat=${encodeURIComponent(cat)}` : ""}#timeline`;
  return (
    <section id="timeline" aria-labelledby="timeline-h">
      <h2 id="timeline-h">Timeline</h2>
      {p.categories.length ? (
        <nav class="chips-nav" aria-label="Timeline categories">
          <a href={href()} aria-current={p.active ? undefined : "page"} class="chip">
            All
          </a>
          {p.categories.map((c) => (
            <a href={href(c)} aria-current={p.active === c ? "page" : undefined} class="chip" safe>
              {label(c)}
            </a>
          ))}
        </nav>
      ) : (
        ""
      )}
      {p.signals.length ? (
        <ol class="timeline">
          {p.signals.map((s) => (
            <li class={s.status === "closed" ? "closed" : "open"}>
              <Time ts={s.first_seen_at} /> <Severity level={s.severity} />{" "}
              <a href={`/app/signals/${s.id}`} safe>
                {String(s.title)}
              </a>
              <span class="muted small" safe>
                {` ${[str(s.category) ? label(str(s.category)) : "", s.status === "closed" ? "closed" : "open"].filter(Boolean).join(" · ")}`}
              </span>
            </li>
          ))}
        </ol>
      ) : (
        <p class="muted">No signals{p.active ? " in this category" : ""} yet.</p>
      )}
    </section>
  );
}
