// /app/compare: every tracked competitor side by side with the workspace's own company, sortable by any column
// (links in the header: no script needed), each value a link to its evidence; /app/compare.csv downloads it.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { compareSources } from "../db/queries/compare.ts";
import { loadSettings } from "../domain/workspace.ts";
import type { Services } from "../services.ts";
import { AppPage, NoWorkspace } from "./appShell.tsx";
import {
  COLUMNS,
  type CompareRow,
  compareCsv,
  competitorRow,
  ownRow,
  SORT_KEYS,
  sortRows,
} from "./compareModel.ts";
import { Html } from "./layout.tsx";
import { type Member, member, privatePage } from "./member.ts";

interface Sort {
  key: string;
  dir: "asc" | "desc";
}

function sortOf(sp: URLSearchParams): Sort {
  const key = sp.get("sort") ?? "";
  return SORT_KEYS.includes(key)
    ? { key, dir: sp.get("dir") === "desc" ? "desc" : "asc" }
    : { key: "", dir: "asc" };
}

async function rowsOf(
  s: Services,
  orgId: number,
  sort: Sort,
): Promise<{ own: CompareRow; rows: CompareRow[] }> {
  const [sources, settings] = await Promise.all([
    compareSources(s.database, orgId),
    loadSettings(s.database, orgId),
  ]);
  const rows = sources.map(competitorRow);
  return {
    own: ownRow(settings.name, settings.websiteUrl),
    rows: sort.key ? sortRows(rows, sort.key, sort.dir) : rows,
  };
}

const external = (href: string) => !href.startsWith("/");

function CellLink({ text, href }: { text: string; href?: string }): JSX.Element {
  if (!text) return "";
  if (!href) return <span safe>{text}</span>;
  return external(href) ? (
    <a href={href} rel="nofollow noopener noreferrer" title="Evidence: source page" safe>
      {text}
    </a>
  ) : (
    <a href={href} title="Evidence" safe>
      {text}
    </a>
  );
}

function HeaderCell({ label, k, sort, org }: { label: string; k: string; sort: Sort; org: string }) {
  const active = sort.key === k;
  // The first click sorts the way a reader most often wants: names A→Z, numbers and dates high first.
  const next = active ? (sort.dir === "asc" ? "desc" : "asc") : k === "name" ? "asc" : "desc";
  const href = `/app/compare?org=${encodeURIComponent(org)}&sort=${k}&dir=${next}`;
  return (
    <th scope="col" aria-sort={active ? (sort.dir === "asc" ? "ascending" : "descending") : undefined}>
      <a href={href} class="sort">
        {Html.escapeHtml(label)}
        {active ? <span aria-hidden="true">{sort.dir === "asc" ? " ▲" : " ▼"}</span> : ""}
      </a>
    </th>
  );
}

function Row({ r }: { r: CompareRow }): JSX.Element {
  return (
    <tr class={r.own ? "own" : undefined}>
      <th scope="row" data-label="Company">
        <CellLink text={r.name} href={r.href} />
        {r.own ? <span class="muted small"> (your company)</span> : ""}
      </th>
      {COLUMNS.map(([k, label]) => (
        <td data-label={label}>
          <CellLink text={r.cells[k].text} href={r.cells[k].href} />
        </td>
      ))}
    </tr>
  );
}

async function comparePage(s: Services, m: Member, request: Request): Promise<Response> {
  const current = m.ws.current;
  if (!current) return privatePage(<NoWorkspace session={m.session} />);
  const sort = sortOf(new URL(request.url).searchParams);
  const { own, rows } = await rowsOf(s, current.orgId, sort);
  const csv = `/app/compare.csv?org=${encodeURIComponent(current.orgSlug)}${
    sort.key ? `&sort=${sort.key}&dir=${sort.dir}` : ""
  }`;
  return privatePage(
    <AppPage session={m.session} current={current} title="Compare" section="compare" switchTo="/app/compare">
      <h1>Compare</h1>
      <p class="muted">
        Every tracked competitor side by side with your company. Each value links to its evidence; an empty
        cell means the research holds no value for it. Click a column to sort.
      </p>
      <p class="actions">
        <a href={csv} download="compare.csv">
          Download CSV
        </a>
      </p>
      {rows.length === 0 ? <p class="muted">No competitors are tracked yet.</p> : ""}
      <section class="scroll compare" tabindex="0" aria-label="Comparison table">
        <table class="compare">
          <thead>
            <tr>
              <HeaderCell label="Company" k="name" sort={sort} org={current.orgSlug} />
              {COLUMNS.map(([k, label]) => (
                <HeaderCell label={label} k={k} sort={sort} org={current.orgSlug} />
              ))}
            </tr>
          </thead>
          <tbody>
            <Row r={own} />
            {rows.map((r) => (
              <Row r={r} />
            ))}
          </tbody>
        </table>
      </section>
    </AppPage>,
    m.ws,
  );
}

export function comparePages(s: Services) {
  return new Elysia({ name: "web-compare" })
    .get("/app/compare", async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      return comparePage(s, m, request);
    })
    .get("/app/compare.csv", async ({ request }) => {
      const m = await member(s, request);
      if (m instanceof Response) return m;
      const current = m.ws.current;
      if (!current) return privatePage(<NoWorkspace session={m.session} />);
      const { own, rows } = await rowsOf(s, current.orgId, sortOf(new URL(request.url).searchParams));
      return new Response(compareCsv([own, ...rows], s.config.baseUrl), {
        headers: {
          "content-type": "text/csv; charset=utf-8",
          "content-disposition": `attachment; filename="compare-${current.orgSlug}.csv"`,
          "cache-control": "no-store",
          "x-content-type-options": "nosniff",
        },
      });
    });
}
