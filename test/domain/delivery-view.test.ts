// The channels in effect (deliveryView): one rule for the settings page, the start page, the tools and the
// outbox. Email takes effect only where the server can send it; a choice that cannot take effect says why.
import { expect, test } from "bun:test";
import { deliveryView } from "../../src/domain/delivery.ts";
import type { WorkspaceSettings } from "../../src/domain/workspace.ts";

const settings = (over: Partial<WorkspaceSettings> = {}): WorkspaceSettings => ({
  orgId: 1,
  slug: "acme",
  name: "Acme",
  websiteUrl: null,
  plan: "growth",
  profile: {},
  profileUpdatedAt: null,
  icp: {},
  icpUpdatedAt: null,
  cadence: null,
  email: null,
  slack: null,
  chatConnectedAt: null,
  teams: null,
  teamsConnectedAt: null,
  rules: {},
  firstBrief: null,
  ...over,
});

test("email (on by default) is in effect where a mail server is configured", () => {
  const v = deliveryView(settings(), true);
  expect(v).toMatchObject({ email: true, email_delivery_available: true, notes: [] });
});

test("without a mail server, email chosen is not in effect and the notes say why", () => {
  const v = deliveryView(settings(), false);
  expect(v.email).toBe(false);
  expect(v.email_delivery_available).toBe(false);
  expect(v.notes).toEqual([
    "Email delivery is switched on but inactive: this server has no mail server configured (its operator sets RIVALS_SMTP_URL).",
  ]);
});

test("email switched off: no note, whatever the server can do", () => {
  for (const mail of [true, false]) {
    const v = deliveryView(settings({ email: false }), mail);
    expect(v).toMatchObject({ email: false, email_delivery_available: mail, notes: [] });
  }
});
