// findRole: the one vocabulary of leadership roles that the hiring, people and announcement rules read, with
// its levels — and the cases where the earlier copies disagreed, decided here and checked through classify().
import { expect, test } from "bun:test";
import { classify } from "../../../src/engine/classify/index.ts";
import { readNews } from "../../../src/engine/classify/news.ts";
import { findRole } from "../../../src/engine/classify/roles.ts";
import { compare, normaliseJobs, seenOf } from "../../../src/engine/compare/index.ts";
import type { Job } from "../../../src/engine/sources/jobBoards.ts";

test("findRole: C-level, the VP family, leadership titles — not assistants or ordinary roles", () => {
  const level = (t: string) => findRole(t)?.level;
  for (const t of [
    "Chief Technology Officer",
    "Chief Revenue Officer (CRO)",
    "CFO",
    "Co-Founder & CTO",
    "President, Americas",
  ])
    expect([t, level(t)]).toEqual([t, "c_level"]);
  for (const t of [
    "VP, Engineering",
    "VP of Sales",
    "Vice President, Product",
    "Senior Vice-President, Sales",
    "SVP Marketing",
    "General Manager, EMEA",
    "Chief of Staff",
  ])
    expect([t, level(t)]).toEqual([t, "executive"]);
  for (const t of ["Head of Design", "Director of Engineering", "General Counsel", "Managing Director, APAC"])
    expect([t, level(t)]).toEqual([t, "leadership"]);
  for (const t of [
    "Senior Software Engineer",
    "Executive Assistant to the CEO",
    "Executive Assistant",
    "Chief of Staff to the CTO",
    "Assistant to the VP of Sales",
    "Account Executive",
    "MVP Program Manager",
    "Customer Success Manager",
    "Headless CMS Developer",
    "",
  ])
    expect([t, level(t)]).toEqual([t, undefined]);
});

test("findRole: the words that named the role, and the name a signal shows", () => {
  expect(findRole("Lena Ortiz, Chief Revenue Officer")).toEqual({
    matched: "Chief Revenue Officer",
    name: "Chief Revenue Officer",
    level: "c_level",
  });
  expect(findRole("Priya Raman: Co-founder and CEO")?.name).toBe("Co-Founder");
  expect(findRole("we hired a new svp of sales")?.name).toBe("SVP");
  expect(findRole("vp of customer success")?.name).toBe("VP Of Customer Success");
});

const BOARD = "https://boards-api.greenhouse.io/v1/boards/globex/jobs?content=true";
const BASE: Job[] = [
  { title: "Senior Backend Engineer", department: "Engineering", location: "Austin, Texas" },
  { title: "Product Designer", department: "Design", location: "Austin, Texas" },
];

function opening(title: string) {
  const a = normaliseJobs(BOARD, BASE);
  const b = normaliseJobs(BOARD, [...BASE, { title, department: "Operations", location: "Austin, Texas" }]);
  return classify(compare(a, b, seenOf([a])), {
    competitor: { id: 7, name: "Globex" },
    pageKind: "jobs",
    observedAt: "2026-11-20T12:00:00.000Z",
    previous: a,
    snapshot: b,
  }).filter((d) => d.type === "key_role_opening");
}

test("hiring: an executive opening is high, a leadership opening medium, a support role none", () => {
  expect(opening("VP of Operations").map((d) => d.severity)).toEqual(["high"]);
  expect(opening("Head of Operations").map((d) => d.severity)).toEqual(["medium"]);
  // Decided: the hiring rule used to read "CEO" in this title as an executive opening (high) while the
  // job-board helper said it was no executive role; a support role to an executive is not a key role.
  expect(opening("Executive Assistant to the CEO")).toEqual([]);
  expect(opening("Chief of Staff to the CTO")).toEqual([]);
});

test("announcements and leadership pages read the same roles", () => {
  expect(
    readNews("Globex appoints Lena Ortiz as Chief Financial Officer", "", "Globex", "blog"),
  ).toMatchObject({
    type: "leadership_change",
    severity: "high",
    subject: "Chief Financial Officer",
  });
  expect(readNews("Globex names Sam Lee VP of Engineering", "", "Globex", "blog")).toMatchObject({
    type: "leadership_change",
    severity: "medium",
  });
  // Decided: founders are C-level on every source (announcements did not list them before).
  expect(readNews("Globex co-founder Jonas Weller steps down", "", "Globex", "blog")).toMatchObject({
    type: "leadership_change",
    severity: "high",
    subject: "Co-Founder",
  });
  expect(readNews("Globex hires an executive assistant to the CEO", "", "Globex", "blog")).toBeNull();
});
