// create_share_link's decider is pure: the plan, the signal's visibility and its current link in, the
// ShareLinkCreated event (or a refusal naming the plan that allows the lifetime) out.
import { expect, test } from "bun:test";
import { sha256 } from "../../src/auth/tokens.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { decideCreateShareLink, type ShareLinkState } from "../../src/domain/shareLinks.ts";
import { InvalidInput } from "../../src/domain/validate.ts";

const now = new Date("2026-05-01T12:00:00.000Z");
const caller = { orgId: 4, actor: "user:8" };
const fresh = { id: 900, token: "t".repeat(43), base: "https://rivals.example" };
const state = (plan: string, over: Partial<ShareLinkState> = {}): ShareLinkState => ({
  plan,
  signalVisible: true,
  previousExpiresAt: undefined,
  ...over,
});
const cmd = (expiry: string) => ({ signal_id: 31, expiry, include_notes: true });

test("a link within the plan's lifetime: one event with the token's digest, the URL in the result only", () => {
  const d = decideCreateShareLink(state("starter"), cmd("24h"), caller, now, fresh);
  expect(d.events).toEqual([
    {
      type: "ShareLinkCreated",
      orgId: 4,
      streamType: "signal",
      streamId: "31",
      data: {
        id: 900,
        signal_id: 31,
        token_hash: sha256(fresh.token),
        include_notes: true,
        expires_at: "2026-05-02T12:00:00.000Z",
        created_at: "2026-05-01T12:00:00.000Z",
        created_by: "user:8",
      },
    },
  ]);
  expect(JSON.stringify(d.events)).not.toContain(fresh.token);
  expect(d.result).toEqual({
    url: `https://rivals.example/share/${fresh.token}`,
    signal_id: 31,
    expires_at: "2026-05-02T12:00:00.000Z",
    include_notes: true,
    replaced_previous: false,
    url_redacted: undefined,
  });
});

test("longer than the plan allows: plan_required names the cheapest plan that allows it", () => {
  let err: unknown;
  try {
    decideCreateShareLink(state("starter"), cmd("3d"), caller, now, fresh);
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(DomainError);
  expect((err as DomainError).code).toBe("plan_required");
  expect((err as DomainError).extra).toEqual({ plan: "starter", plan_needed: "growth", max_hours: 24 });
  // Longer than any plan: an input error, not an upgrade.
  expect(() => decideCreateShareLink(state("enterprise"), cmd("5w"), caller, now, fresh)).toThrow(
    InvalidInput,
  );
});

test("an absolute time a few minutes past the lifetime is clamped to it", () => {
  const d = decideCreateShareLink(state("free"), cmd("2026-05-02T12:03:00Z"), caller, now, fresh);
  expect(d.result.expires_at).toBe("2026-05-02T12:00:00.000Z");
});

test("an unseen signal is not_found, after the lifetime is checked", () => {
  const hidden = state("growth", { signalVisible: false });
  expect(() => decideCreateShareLink(hidden, cmd("2d"), caller, now, fresh)).toThrow(
    "No signal with that id in this workspace.",
  );
  expect(() => decideCreateShareLink(hidden, cmd("0h"), caller, now, fresh)).toThrow(InvalidInput);
});

test("replaced_previous only when the signal's current link has not expired yet", () => {
  const live = state("growth", { previousExpiresAt: "2026-05-01T18:00:00.000Z" });
  const dead = state("growth", { previousExpiresAt: "2026-04-30T18:00:00.000Z" });
  expect(decideCreateShareLink(live, cmd("1d"), caller, now, fresh).result.replaced_previous).toBe(true);
  expect(decideCreateShareLink(dead, cmd("1d"), caller, now, fresh).result.replaced_previous).toBe(false);
});
