// Job boards: detection from careers-page links, the exact public API URLs of ENGINE.md, each provider's
// real JSON shape into Job[] and the hiring read. Bad input gives null / [].
import { expect, test } from "bun:test";
import {
  detectJobBoard,
  hiringRead,
  jobBoardApiUrl,
  jobBoardFrom,
  parseJobBoard,
} from "../../../src/engine/sources/jobBoards.ts";

test("detects Greenhouse boards, job pages, the new job-boards host, embeds and the API", () => {
  const gh = (token: string) => ({ provider: "greenhouse" as const, token });
  expect(detectJobBoard("https://boards.greenhouse.io/globex")).toEqual(gh("globex"));
  expect(detectJobBoard("https://boards.greenhouse.io/globex/jobs/4012345006?gh_src=abc")).toEqual(
    gh("globex"),
  );
  expect(detectJobBoard("https://job-boards.greenhouse.io/globex")).toEqual(gh("globex"));
  // An EU board keeps its region: it is read from the EU API host.
  expect(detectJobBoard("https://job-boards.eu.greenhouse.io/globexeu/jobs/1")).toEqual({
    ...gh("globexeu"),
    region: "eu",
  });
  expect(
    detectJobBoard("https://boards.greenhouse.io/embed/job_board?for=globex&b=https://globex.example"),
  ).toEqual(gh("globex"));
  expect(detectJobBoard("https://boards.greenhouse.io/embed/job_board/js?for=globex")).toEqual(gh("globex"));
  expect(detectJobBoard("https://job-boards.greenhouse.io/embed/job_app?for=globex&token=123")).toEqual(
    gh("globex"),
  );
  expect(detectJobBoard("https://boards-api.greenhouse.io/v1/boards/globex/jobs?content=true")).toEqual(
    gh("globex"),
  );
  expect(detectJobBoard("https://boards.greenhouse.io/embed/job_board")).toBeNull();
  expect(detectJobBoard("https://boards.greenhouse.io/")).toBeNull();
});

test("detects Lever and Ashby boards and rejects look-alikes and other hosts", () => {
  expect(detectJobBoard("https://jobs.lever.co/initech")).toEqual({ provider: "lever", token: "initech" });
  expect(detectJobBoard("https://jobs.lever.co/initech/1b2c3d4e-aaaa-bbbb-cccc-1234567890ab/apply")).toEqual({
    provider: "lever",
    token: "initech",
  });
  expect(detectJobBoard("https://api.lever.co/v0/postings/initech?mode=json")).toEqual({
    provider: "lever",
    token: "initech",
  });
  expect(detectJobBoard("https://jobs.ashbyhq.com/hooli")).toEqual({ provider: "ashby", token: "hooli" });
  expect(detectJobBoard("https://jobs.ashbyhq.com/Hooli%20Labs/5f1e2d3c")).toBeNull(); // a space is no board name
  expect(detectJobBoard("https://jobs.ashbyhq.com/hooli/5f1e2d3c-1111-2222-3333-444455556666")).toEqual({
    provider: "ashby",
    token: "hooli",
  });
  expect(
    detectJobBoard("https://api.ashbyhq.com/posting-api/job-board/hooli?includeCompensation=true"),
  ).toEqual({
    provider: "ashby",
    token: "hooli",
  });
  for (const url of [
    "https://greenhouse.io/globex",
    "https://boards.greenhouse.io.evil.example/globex",
    "https://lever.co/initech",
    "https://jobs.lever.co/",
    "https://www.ashbyhq.com/careers",
    "https://globex.example/careers",
    "ftp://jobs.lever.co/initech",
    "not a url",
    "",
  ]) {
    expect(detectJobBoard(url)).toBeNull();
  }
});

test("API URLs have exactly ENGINE.md's shapes", () => {
  expect(jobBoardApiUrl({ provider: "greenhouse", token: "globex" })).toBe(
    "https://boards-api.greenhouse.io/v1/boards/globex/jobs?content=true",
  );
  expect(jobBoardApiUrl({ provider: "lever", token: "initech" })).toBe(
    "https://api.lever.co/v0/postings/initech?mode=json",
  );
  expect(jobBoardApiUrl({ provider: "ashby", token: "hooli" })).toBe(
    "https://api.ashbyhq.com/posting-api/job-board/hooli?includeCompensation=true",
  );
});

const GREENHOUSE = JSON.stringify({
  jobs: [
    {
      absolute_url: "https://boards.greenhouse.io/globex/jobs/4012345006",
      data_compliance: [{ type: "gdpr", requires_consent: false }],
      internal_job_id: 3900001,
      location: { name: "San Francisco, CA" },
      metadata: null,
      id: 4012345006,
      updated_at: "2025-03-03T12:01:02-05:00",
      requisition_id: "ENG-101",
      title: "Senior Backend Engineer",
      company_name: "Globex",
      first_published: "2025-02-20T09:00:00-05:00",
      content: "&lt;p&gt;Build things.&lt;/p&gt;",
      departments: [{ id: 40001, name: "Engineering", child_ids: [], parent_id: null }],
      offices: [
        { id: 50001, name: "San Francisco", location: "San Francisco, CA", child_ids: [], parent_id: null },
      ],
    },
    {
      absolute_url: "https://boards.greenhouse.io/globex/jobs/4012345007",
      location: { name: "Remote - US" },
      id: 4012345007,
      updated_at: "2025-03-01T08:00:00-05:00",
      title: "VP of Marketing",
      departments: [],
    },
    { id: 1, title: "" },
    "junk",
  ],
  meta: { total: 2 },
});

test("parses Greenhouse's jobs[] (title, location.name, departments[].name, absolute_url, first_published/updated_at)", () => {
  expect(parseJobBoard("greenhouse", GREENHOUSE)).toEqual([
    {
      title: "Senior Backend Engineer",
      department: "Engineering",
      location: "San Francisco, CA",
      url: "https://boards.greenhouse.io/globex/jobs/4012345006",
      posted_at: "2025-02-20T14:00:00.000Z",
    },
    {
      title: "VP of Marketing",
      location: "Remote - US",
      url: "https://boards.greenhouse.io/globex/jobs/4012345007",
      posted_at: "2025-03-01T13:00:00.000Z",
    },
  ]);
});

test("parses Lever's array of postings (text, categories, hostedUrl, createdAt ms)", () => {
  const lever = JSON.stringify([
    {
      additional: "",
      additionalPlain: "",
      categories: {
        commitment: "Full-time",
        department: "R&D",
        location: "London",
        team: "Platform",
        allLocations: ["London", "Remote - UK"],
      },
      createdAt: 1740787200000,
      descriptionPlain: "About the role",
      id: "1b2c3d4e-aaaa-bbbb-cccc-1234567890ab",
      lists: [],
      text: "Site Reliability Engineer",
      country: "GB",
      workplaceType: "hybrid",
      hostedUrl: "https://jobs.lever.co/initech/1b2c3d4e-aaaa-bbbb-cccc-1234567890ab",
      applyUrl: "https://jobs.lever.co/initech/1b2c3d4e-aaaa-bbbb-cccc-1234567890ab/apply",
    },
    {
      categories: { team: "Sales", allLocations: ["New York"] },
      createdAt: 1741000000000,
      id: "2",
      text: "Account Executive",
      hostedUrl: "https://jobs.lever.co/initech/2",
    },
  ]);
  expect(parseJobBoard("lever", lever)).toEqual([
    {
      title: "Site Reliability Engineer",
      department: "R&D",
      location: "London",
      url: "https://jobs.lever.co/initech/1b2c3d4e-aaaa-bbbb-cccc-1234567890ab",
      posted_at: "2025-03-01T00:00:00.000Z",
    },
    {
      title: "Account Executive",
      department: "Sales",
      location: "New York",
      url: "https://jobs.lever.co/initech/2",
      posted_at: "2025-03-03T11:06:40.000Z",
    },
  ]);
  // Lever answers an error object for an unknown site.
  expect(parseJobBoard("lever", '{"ok":false,"error":"Document not found"}')).toEqual([]);
});

test("parses Ashby's jobs[] (title, department/team, location, jobUrl, publishedAt), skipping unlisted ones", () => {
  const ashby = JSON.stringify({
    apiVersion: "1",
    jobs: [
      {
        id: "5f1e2d3c-1111-2222-3333-444455556666",
        title: "Head of Customer Success",
        department: "Customer Success",
        team: "CS Leadership",
        employmentType: "FullTime",
        location: "Berlin",
        secondaryLocations: [{ location: "Remote - EU", address: null }],
        publishedAt: "2025-02-14T10:30:00.000+00:00",
        isListed: true,
        isRemote: false,
        jobUrl: "https://jobs.ashbyhq.com/hooli/5f1e2d3c-1111-2222-3333-444455556666",
        applyUrl: "https://jobs.ashbyhq.com/hooli/5f1e2d3c-1111-2222-3333-444455556666/application",
        descriptionPlain: "Lead the team",
        compensation: { compensationTierSummary: "€90K – €110K" },
      },
      { id: "x", title: "Hidden role", isListed: false, jobUrl: "https://jobs.ashbyhq.com/hooli/x" },
      { id: "y", title: "Designer", team: "Design", jobUrl: "https://jobs.ashbyhq.com/hooli/y" },
    ],
  });
  expect(parseJobBoard("ashby", ashby)).toEqual([
    {
      title: "Head of Customer Success",
      department: "Customer Success",
      location: "Berlin",
      url: "https://jobs.ashbyhq.com/hooli/5f1e2d3c-1111-2222-3333-444455556666",
      posted_at: "2025-02-14T10:30:00.000Z",
    },
    { title: "Designer", department: "Design", url: "https://jobs.ashbyhq.com/hooli/y" },
  ]);
});

test("malformed or mismatched JSON gives []", () => {
  for (const text of ["", "not json", "null", "42", '{"jobs": "x"}', "[1,2,3]", "<html></html>"]) {
    expect(parseJobBoard("greenhouse", text)).toEqual([]);
    expect(parseJobBoard("lever", text)).toEqual([]);
    expect(parseJobBoard("ashby", text)).toEqual([]);
  }
  expect(parseJobBoard("lever", GREENHOUSE)).toEqual([]); // a Greenhouse answer is not a Lever one
});

test("hiringRead: open roles, departments counted (only where stated), distinct sorted locations, board", () => {
  const jobs = parseJobBoard("greenhouse", GREENHOUSE);
  expect(hiringRead(jobs, "greenhouse")).toEqual({
    open_roles: 2,
    by_department: { Engineering: 1 },
    locations: ["Remote - US", "San Francisco, CA"],
    board: "greenhouse",
  });
  expect(
    hiringRead([
      { title: "A", department: "Sales", location: "NYC" },
      { title: "B", department: "Sales", location: "nyc" },
      { title: "C", department: "Engineering" },
    ]),
  ).toEqual({ open_roles: 3, by_department: { Engineering: 1, Sales: 2 }, locations: ["NYC"] });
  expect(hiringRead([], "lever")).toEqual({
    open_roles: 0,
    by_department: {},
    locations: [],
    board: "lever",
  });
});

test("jobBoardFrom: the board a careers page's links and embed scripts point at", () => {
  expect(
    jobBoardFrom([
      { url: "https://globex.example/about" },
      "https://boards.greenhouse.io/embed/job_board/js?for=globex",
      { url: "https://boards.greenhouse.io/globex/jobs/1" },
      { url: "https://jobs.lever.co/partner-co" },
    ]),
  ).toEqual({ provider: "greenhouse", token: "globex" });
  expect(jobBoardFrom([{ url: "https://globex.example/careers" }])).toBeNull();
  expect(jobBoardFrom(undefined as never)).toBeNull();
});
