// The public library's import deciders and the invitation revoke decider are pure: stored state in, events out.
import { expect, test } from "bun:test";
import { decideInvitationRevoked } from "../../src/domain/invitations.ts";
import {
  decideGuide,
  decidePublicBrief,
  parseGuide,
  parsePublicBrief,
} from "../../src/domain/publicLibrary.ts";

const now = new Date("2026-06-01T08:00:00.000Z");

test("revoking: only a pending invitation gets an InvitationRevoked, with the reason", () => {
  expect(decideInvitationRevoked("pending", 5, 61, "delivery_failed", now)).toEqual([
    {
      type: "InvitationRevoked",
      orgId: 5,
      streamType: "invitation",
      streamId: "61",
      data: { revoked_at: "2026-06-01T08:00:00.000Z", reason: "delivery_failed" },
    },
  ]);
  for (const status of ["accepted", "replaced", "revoked", undefined])
    expect(decideInvitationRevoked(status, 5, 61, "revoked", now)).toEqual([]);
});

const briefLine = {
  kind: "public_brief",
  company_slug: "acme",
  slug: "brief-2026-06-01",
  company_name: "Acme",
  domain: "https://www.Acme.example/about",
  title: "Acme in June",
  findings: [{ text: "Raised prices", date: "2026-05-30" }],
  sources: [{ url: "https://acme.example/pricing" }],
  published_at: "2026-06-01T08:00:00Z",
};

test("a new public brief is recorded under the id given; the same one stored is not recorded again", () => {
  const brief = parsePublicBrief(briefLine);
  const events = decidePublicBrief(brief, undefined, 300);
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    type: "PublicBriefRecorded",
    orgId: null,
    streamType: "public_brief",
    streamId: "300",
    data: { id: 300, company_slug: "acme", slug: "brief-2026-06-01", record: { domain: "acme.example" } },
  });
  const stored = { id: 300, record: JSON.parse(JSON.stringify(brief.record)) };
  expect(decidePublicBrief(brief, stored, 300)).toEqual([]);
  const changed = parsePublicBrief({ ...briefLine, title: "Acme in June, again" });
  expect(decidePublicBrief(changed, stored, 300)[0]).toMatchObject({ streamId: "300", data: { id: 300 } });
});

test("a guide: recorded when new or changed, nothing when the same", () => {
  const line = {
    kind: "guide",
    slug: "win-loss",
    title: "Win/loss",
    body_markdown: "# Why",
    published_at: "2026-06-01",
  };
  const guide = parseGuide(line);
  expect(decideGuide(guide, undefined, 12)).toEqual([
    {
      type: "GuideRecorded",
      orgId: null,
      streamType: "guide",
      streamId: "12",
      data: { id: 12, slug: "win-loss", record: guide.record },
    },
  ]);
  expect(decideGuide(guide, { id: 12, record: JSON.parse(JSON.stringify(guide.record)) }, 12)).toEqual([]);
  expect(
    decideGuide(
      parseGuide({ ...line, body_markdown: "# Why we lose" }),
      { id: 12, record: guide.record },
      12,
    ),
  ).toHaveLength(1);
});
