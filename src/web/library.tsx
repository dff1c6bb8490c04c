// The public library: /briefs, /briefs/{company}, /briefs/{company}/{slug}, /guides, /guides/{slug} — the
// page URLs the public tools return. Same tables and queries as the tools (db/queries/publicLibrary.ts).
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { getGuide, listCompanyBriefs } from "../db/queries/public.ts";
import { getPublicBrief, searchGuides, searchPublicBriefs } from "../db/queries/publicLibrary.ts";
import type { Services } from "../services.ts";
import { ExternalLink, Time } from "./components.tsx";
import { notFound } from "./http.ts";
import { Html, Layout } from "./layout.tsx";
import { renderMarkdown, stripLeadingTitle } from "./markdown.ts";
import { publicPage, viewer } from "./public.tsx";

const LIST_LIMIT = 50;
const briefHref = (company: string, slug: string) =>
  `/briefs/${encodeURIComponent(company)}/${encodeURIComponent(slug)}`;
const companyHref = (company: string) => `/briefs/${encodeURIComponent(company)}`;

function SearchBox({ action, q, label }: { action: string; q: string; label: string }): JSX.Element {
  return (
    <form method="get" action={action} class="filters">
      <div>
        <label for="lib-q" safe>
          {label}
        </label>
        <input id="lib-q" type="search" name="q" value={q} maxlength="200" />
      </div>
      <div class="actions">
        <button type="submit">Search</button>
        {q ? <a href={action}>Clear</a> : ""}
      </div>
    </form>
  );
}

/** A finding's text with each citation of a listed source ("[2]") linked to that source below. */
function FindingText({ text, sources }: { text: string; sources: number }): JSX.Element {
  const parts = text.split(/(\[\d{1,3}\])/);
  return (
    <span>
      {parts.map((part) => {
        const n = /^\[(\d{1,3})\]$/.exec(part)?.[1];
        return n && Number(n) >= 1 && Number(n) <= sources ? (
          <a href={`#source-${n}`} aria-label={`source ${n}`}>
            {part}
          </a>
        ) : (
          <span safe>{part}</span>
        );
      })}
    </span>
  );
}

function CtaFreeBrief(): JSX.Element {
  return (
    <p class="notice">
      Want a brief on a competitor of yours? <a href="/free-brief">Request a free brief</a> or{" "}
      <a href="/signup">track them continuously</a>.
    </p>
  );
}

export function libraryPages(s: Services) {
  const c = s.database;
  const base = s.config.baseUrl;
  const q = (request: Request) => (new URL(request.url).searchParams.get("q") ?? "").trim().slice(0, 200);

  return new Elysia({ name: "web-library" })
    .get("/briefs", async ({ request }) => {
      const query = q(request);
      const briefs = await searchPublicBriefs(c, { query: query || undefined, limit: LIST_LIMIT }, base);
      return publicPage(
        <Layout title="Public competitive briefs" user={await viewer(s, request)}>
          <>
            <h1>Public competitive briefs</h1>
            <p>
              Short, sourced briefs on companies, newest first. Every finding links to its public sources.
            </p>
            <SearchBox action="/briefs" q={query} label="Search briefs (words, company name or domain)" />
            {briefs.length ? (
              briefs.map((b) => (
                <article class="card">
                  <h3>
                    <a href={briefHref(b.company.slug, b.slug)} safe>
                      {b.title}
                    </a>
                  </h3>
                  <p class="meta muted small">
                    <a href={companyHref(b.company.slug)} safe>
                      {b.company.name}
                    </a>
                    <Time ts={b.published_at} />
                    <span>
                      {Html.escapeHtml(`${b.finding_count} finding${b.finding_count === 1 ? "" : "s"}`)}
                    </span>
                  </p>
                  {b.summary ? <p safe>{b.summary}</p> : ""}
                </article>
              ))
            ) : (
              <p class="muted">{query ? "No brief matches." : "No briefs are published yet."}</p>
            )}
            <CtaFreeBrief />
          </>
        </Layout>,
      );
    })
    .get("/briefs/:company", async ({ request, params }) => {
      const company = String(params.company);
      const briefs = company.length <= 200 ? await listCompanyBriefs(c, company, LIST_LIMIT) : [];
      if (briefs.length === 0) notFound();
      const name = briefs[0].company_name;
      return publicPage(
        <Layout title={`Briefs on ${name}`} user={await viewer(s, request)}>
          <>
            <p class="muted small">
              <a href="/briefs">Briefs</a>
            </p>
            <h1>
              Briefs on <span safe>{name}</span>
            </h1>
            {briefs[0].domain ? (
              <p>
                <ExternalLink href={`https://${briefs[0].domain}`} text={briefs[0].domain} />
              </p>
            ) : (
              ""
            )}
            {briefs.map((b) => (
              <article class="card">
                <h3>
                  <a href={briefHref(company, b.slug)} safe>
                    {b.title}
                  </a>
                </h3>
                <p class="muted small">
                  <Time ts={b.published_at} />
                </p>
                {b.summary ? <p safe>{b.summary}</p> : ""}
              </article>
            ))}
            <CtaFreeBrief />
          </>
        </Layout>,
      );
    })
    .get("/briefs/:company/:slug", async ({ request, params }) => {
      const company = String(params.company);
      const slug = String(params.slug);
      if (company.length > 200 || slug.length > 200) notFound();
      const b = await getPublicBrief(c, company, slug, base);
      if (!b) notFound();
      return publicPage(
        <Layout title={b.title} user={await viewer(s, request)}>
          <>
            <p class="muted small">
              <a href="/briefs">Briefs</a> ›{" "}
              <a href={companyHref(b.company.slug)} safe>
                {b.company.name}
              </a>
            </p>
            <h1 safe>{b.title}</h1>
            <p class="meta muted">
              <span safe>{b.company.name}</span>
              {b.company.domain ? (
                <ExternalLink href={`https://${b.company.domain}`} text={b.company.domain} />
              ) : (
                ""
              )}
              <span>
                Published <Time ts={b.published_at} />
              </span>
            </p>
            {b.summary ? (
              <p class="lead" safe>
                {b.summary}
              </p>
            ) : (
              ""
            )}
            <h2>Findings</h2>
            {b.findings.length ? (
              <ol>
                {b.findings.map((f) => (
                  <li>
                    <FindingText text={f.text} sources={b.sources.length} />
                    {f.category || f.date ? (
                      <div class="muted small">
                        <span safe>{f.category ?? ""}</span>
                        {f.category && f.date ? " · " : ""}
                        {f.date ? <Time ts={f.date} /> : ""}
                      </div>
                    ) : (
                      ""
                    )}
                  </li>
                ))}
              </ol>
            ) : (
              <p class="muted">No findings.</p>
            )}
            <h2>Sources</h2>
            {b.sources.length ? (
              <ol>
                {b.sources.map((src) => (
                  <li id={`source-${src.number}`}>
                    <ExternalLink href={src.url} text={src.title || src.url} />
                  </li>
                ))}
              </ol>
            ) : (
              <p class="muted">No sources listed.</p>
            )}
            <CtaFreeBrief />
          </>
        </Layout>,
      );
    })
    .get("/guides", async ({ request }) => {
      const query = q(request);
      const guides = await searchGuides(c, query || undefined, LIST_LIMIT, base);
      return publicPage(
        <Layout title="Guides" user={await viewer(s, request)}>
          <>
            <h1>Guides</h1>
            <p>How to run competitive intelligence well: tracking, battlecards, win/loss, pricing moves.</p>
            <SearchBox action="/guides" q={query} label="Search guides" />
            {guides.length ? (
              guides.map((g) => (
                <article class="card">
                  <h3>
                    <a href={`/guides/${encodeURIComponent(g.slug)}`} safe>
                      {g.title}
                    </a>
                  </h3>
                  <p class="muted small">
                    <Time ts={g.published_at} />
                  </p>
                  {g.excerpt ? <p safe>{g.excerpt}</p> : ""}
                </article>
              ))
            ) : (
              <p class="muted">{query ? "No guide matches." : "No guides are published yet."}</p>
            )}
          </>
        </Layout>,
      );
    })
    .get("/guides/:slug", async ({ request, params }) => {
      const slug = String(params.slug);
      const g = slug.length <= 200 ? await getGuide(c, slug, base) : undefined;
      if (!g) notFound();
      return publicPage(
        <Layout title={g.title} user={await viewer(s, request)}>
          <>
            <p class="muted small">
              <a href="/guides">Guides</a>
            </p>
            <article class="markdown">
              <h1 safe>{g.title}</h1>
              <p class="muted small">
                Published <Time ts={g.published_at} />
              </p>
              {g.excerpt ? (
                <p class="lead" safe>
                  {g.excerpt}
                </p>
              ) : (
                ""
              )}
              {renderMarkdown(stripLeadingTitle(g.body_markdown, g.title)) as "safe"}
            </article>
            <CtaFreeBrief />
          </>
        </Layout>,
      );
    });
}
