// Two workspaces and four people for the page tests: records with hostile text, enough signals to page.
import { createSession } from "../../src/auth/session.ts";
import { addMember } from "../../src/domain/members.ts";
import type { TestServer } from "./helpers.ts";

export const XSS = `<script>alert("x")</script>`;
export const XSS_ESCAPED = "&lt;script&gt;";
export const FEED_SIGNALS = 23;

export interface Person {
  email: string;
  userId: number;
  cookie: string;
}

export interface WebFixture {
  ids: Record<string, number>;
  ann: Person; // admin of acme
  bob: Person; // member of acme
  cat: Person; // member of acme and of zulu
  zed: Person; // admin of zulu only
}

type Obj = Record<string, unknown>;

export function webLines(): Obj[] {
  const lines: Obj[] = [
    {
      kind: "competitor",
      org: "acme",
      key: "globex",
      name: `Globex ${XSS}`,
      website_url: "https://globex.example",
      watch: "core",
      tracking: "active",
      priority: 1,
      description: `Analytics ${XSS}`,
      reads: { positioning: `Fast ${XSS}`, pricing: { model: `per seat ${XSS}` } },
    },
    {
      kind: "competitor",
      org: "acme",
      key: "initech",
      name: "Initech",
      watch: "horizon",
      tracking: "active",
      priority: 2,
    },
    {
      kind: "signal",
      org: "acme",
      key: "xss",
      competitor: "globex",
      title: `Price change ${XSS}`,
      summary: `Summary ${XSS}`,
      severity: "high",
      status: "open",
      first_seen_at: "2026-11-19T10:00:00Z",
      evidence: [
        {
          text: `Evidence ${XSS}`,
          source_title: `Pricing ${XSS}`,
          source_url: "https://globex.example/pricing",
          observed_at: "2026-11-19T09:00:00Z",
        },
        { text: "No address", source_title: "Not a link" },
      ],
    },
    {
      kind: "signal",
      org: "acme",
      key: "closed",
      competitor: "initech",
      title: "Closed Initech thing",
      severity: "low",
      status: "closed",
      first_seen_at: "2026-11-01T10:00:00Z",
      evidence: [],
    },
  ];
  for (let i = 0; i < FEED_SIGNALS - 1; i++) {
    const day = String(1 + (i % 17)).padStart(2, "0");
    lines.push({
      kind: "signal",
      org: "acme",
      key: `s${i}`,
      competitor: i % 2 ? "initech" : "globex",
      title: `Feed signal ${i}`,
      severity: i % 3 === 0 ? "medium" : "low",
      status: "open",
      first_seen_at: `2026-10-${day}T08:${String(i).padStart(2, "0")}:00Z`,
      evidence: [{ text: `Evidence of ${i}`, source_url: `https://src.example/${i}` }],
    });
  }
  lines.push(
    {
      kind: "digest",
      org: "acme",
      key: "w46",
      slug: "weekly-46",
      type: "weekly_tldr",
      status: "generated",
      title: `Weekly ${XSS}`,
      headline: "Headline",
      tldr: `TLDR ${XSS}`,
      coverage_period_start: "2026-11-09T00:00:00Z",
      coverage_period_end: "2026-11-16T00:00:00Z",
      generated_at: "2026-11-16T06:00:00Z",
      signals: ["xss", "s0"],
      markdown: `# Weekly\n\n## Moves\n\n- **Globex** raised prices ${XSS}\n- [safe link](https://globex.example/pricing)\n- [bad link](javascript:alert(1))\n\n<img src=x onerror=alert(1)>`,
    },
    {
      kind: "digest",
      org: "acme",
      key: "draft",
      slug: "draft-digest",
      type: "weekly_tldr",
      status: "draft",
      title: "Draft digest",
    },
    {
      kind: "battlecard",
      org: "acme",
      key: "globex-card",
      competitor: "globex",
      status: "generated",
      generated_at: "2026-11-18T07:00:00Z",
      sections: {
        overview: `Overview ${XSS}`,
        strengths: ["Fast UI", `Strong ${XSS}`],
        weaknesses: ["Pricey"],
        talk_tracks: ["Ask about SSO"],
      },
      evidence: {
        sources: [
          {
            title: "Pricing page",
            url: "https://globex.example/pricing",
            observed_at: "2026-11-18T08:00:00Z",
          },
        ],
      },
    },
    {
      kind: "competitor",
      org: "zulu",
      key: "globex",
      name: "Zulu Globex",
      watch: "core",
      tracking: "active",
    },
    {
      kind: "signal",
      org: "zulu",
      key: "z1",
      competitor: "globex",
      title: "Zulu only signal",
      severity: "high",
      status: "open",
      first_seen_at: "2026-11-19T11:00:00Z",
      evidence: [],
    },
    {
      kind: "digest",
      org: "zulu",
      key: "zd",
      slug: "weekly-46",
      type: "weekly_tldr",
      status: "generated",
      title: "Zulu weekly",
      markdown: "Zulu",
    },
    {
      kind: "battlecard",
      org: "zulu",
      key: "zc",
      competitor: "globex",
      status: "generated",
      sections: { overview: "Zulu card" },
    },
  );
  lines.push(
    {
      kind: "public_brief",
      company_slug: "globex",
      company_name: `Globex ${XSS}`,
      domain: "globex.example",
      slug: "pricing-2026",
      title: `Globex pricing ${XSS}`,
      summary: "Prices went up.",
      findings: [
        { text: `Team plan +20% ${XSS}`, category: "pricing", date: "2026-11-18" },
        { text: "SSO moved", category: "packaging" },
      ],
      sources: [
        { title: "Globex pricing page", url: "https://globex.example/pricing" },
        { url: "https://globex.example/blog" },
      ],
      published_at: "2026-11-19T10:00:00Z",
    },
    {
      kind: "public_brief",
      company_slug: "globex",
      company_name: `Globex ${XSS}`,
      domain: "globex.example",
      slug: "launch-2026",
      title: "Globex launches Ask",
      findings: [],
      sources: [],
      published_at: "2026-11-01T10:00:00Z",
    },
    {
      kind: "public_brief",
      company_slug: "initech",
      company_name: "Initech",
      slug: "hiring",
      title: "Initech hiring spree",
      findings: [{ text: "Hiring 40 engineers" }],
      sources: [],
      published_at: "2026-10-01T10:00:00Z",
    },
    {
      kind: "guide",
      slug: "win-loss",
      title: "Running a win/loss review",
      excerpt: `Ask why ${XSS}`,
      body_markdown: `# Running a win/loss review\n\n## Interview\n\n1. Ask the **buyer**\n2. See [the template](https://guides.example/t)\n\n${XSS}\n\n[x](javascript:alert(1))`,
      published_at: "2026-10-20T09:00:00Z",
    },
    {
      kind: "guide",
      slug: "battlecards-101",
      title: "Battlecards 101",
      body_markdown: "Short.",
      published_at: "2026-09-20T09:00:00Z",
    },
  );
  return lines;
}

async function person(t: TestServer, email: string, orgs: [string, "admin" | "member"][]): Promise<Person> {
  let userId = 0;
  for (const [org, role] of orgs)
    userId = (await addMember(t.services.store, { org, email, role, password: "correct horse battery" }))
      .user_id;
  const { cookie } = await createSession(t.services, userId);
  return { email, userId, cookie: cookie.split(";")[0] };
}

export async function loadWebFixture(t: TestServer): Promise<WebFixture> {
  await t.org("acme", "growth");
  await t.org("zulu", "growth");
  const report = await t.load(webLines());
  if (report.errors.length) throw new Error(JSON.stringify(report.errors));
  const ids: Record<string, number> = {};
  for (const table of ["competitors", "signals", "digests", "battlecards"]) {
    const r = await t.services.database.client.execute(
      `SELECT t.id, t.key, o.slug FROM ${table} t JOIN orgs o ON o.id = t.org_id`,
    );
    for (const row of r.rows) ids[`${row.slug}:${table}:${row.key}`] = Number(row.id);
  }
  return {
    ids,
    ann: await person(t, "ann@acme.example", [["acme", "admin"]]),
    bob: await person(t, "bob@acme.example", [["acme", "member"]]),
    cat: await person(t, "cat@both.example", [
      ["acme", "member"],
      ["zulu", "member"],
    ]),
    zed: await person(t, "zed@zulu.example", [["zulu", "admin"]]),
  };
}

/** GET as a browser would (Accept: text/html), with an optional session cookie. */
export function browse(
  t: TestServer,
  path: string,
  cookie?: string,
  accept = "text/html,application/xhtml+xml",
) {
  return fetch(t.base + path, {
    headers: { accept, ...(cookie ? { cookie } : {}) },
    redirect: "manual",
  });
}

/** POST a form as a browser would. */
export function postForm(
  t: TestServer,
  path: string,
  form: Record<string, string | string[]>,
  cookie?: string,
) {
  const body = new URLSearchParams();
  for (const [k, v] of Object.entries(form)) for (const x of Array.isArray(v) ? v : [v]) body.append(k, x);
  return fetch(t.base + path, {
    method: "POST",
    headers: {
      accept: "text/html",
      "content-type": "application/x-www-form-urlencoded",
      origin: t.base,
      ...(cookie ? { cookie } : {}),
    },
    body,
    redirect: "manual",
  });
}

export function csrfOf(html: string): string {
  const m = /name="csrf" value="([^"]+)"/.exec(html);
  if (!m) throw new Error("no csrf field on the page");
  return m[1];
}
