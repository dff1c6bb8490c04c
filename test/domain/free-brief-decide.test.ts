// The free-brief deciders on plain state, no database: the company a host belongs to, the client network a
// limit counts, which limit withholds an email, the request's event, a confirmation's checks, a review.
import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { decideReviewPublicBrief } from "../../src/domain/briefReview.ts";
import { DomainError } from "../../src/domain/errors.ts";
import {
  companyDomain,
  decideConfirmFreeBrief,
  decideFreeBriefAnswered,
  decideFreeBriefConfirmationEmailed,
  decideRequestFreeBrief,
  emailWithheld,
  FAILURE_REASONS,
  failureReason,
} from "../../src/domain/freeBriefs.ts";
import { FREE_BRIEF } from "../../src/domain/limits.ts";
import { clientNetwork } from "../../src/domain/network.ts";
import { InvalidInput } from "../../src/domain/validate.ts";

const now = new Date("2026-11-20T12:00:00Z");
const none = { company: 0, recipient: 0, network: 0 };
const ctx = { id: 7, viewerDigest: "v".repeat(64), networkDigest: "n".repeat(64), counts: none };
const digest = (s: string) => createHash("sha256").update(s).digest("hex");

describe("companyDomain: every subdomain is one company", () => {
  test("registrable domains, platforms' customers apart, no IP literals", () => {
    expect(companyDomain("www.blog.acme.co.uk")).toBe("acme.co.uk");
    expect(companyDomain("a.b.globex.example")).toBe("globex.example");
    expect(companyDomain("acme.github.io")).toBe("acme.github.io");
    expect(companyDomain("ACME.com.")).toBe("acme.com");
    expect(companyDomain("8.8.8.8")).toBeUndefined();
    expect(companyDomain("co.uk")).toBeUndefined();
  });
});

describe("clientNetwork: an IPv4 address, an IPv6 /64", () => {
  test("addresses of one /64 are one network; an IPv4-mapped address is its IPv4", () => {
    expect(clientNetwork("203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("2001:db8:1:2:aa::1")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:db8:1:2:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(clientNetwork("2001:db8:1:3::1")).toBe("2001:db8:1:3::/64");
    expect(clientNetwork("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(clientNetwork("unknown")).toBe("unknown");
  });
});

describe("decideRequestFreeBrief", () => {
  test("refuses private and special-use hosts and IP literals, with what to give instead", () => {
    for (const site of [
      "127.0.0.1",
      "169.254.169.254",
      "metadata.google.internal",
      "localhost:3000",
      "x.local",
    ])
      expect(() => decideRequestFreeBrief({ website_url: site }, ctx, now)).toThrow(
        "is a private or special-use address, not a public website",
      );
    expect(() => decideRequestFreeBrief({ website_url: "1.1.1.1" }, ctx, now)).toThrow(
      "not by an IP address",
    );
    expect(() => decideRequestFreeBrief({ website_url: "ftp://acme.com" }, ctx, now)).toThrow(InvalidInput);
  });

  test("asks for a confirmation when no limit is reached, and keeps the address only then", () => {
    const [ok] = decideRequestFreeBrief({ website_url: "blog.Acme.com", email: "Me@Example.com" }, ctx, now);
    expect(ok.data).toMatchObject({ domain: "acme.com", email: "me@example.com", confirm: true });
    const [over] = decideRequestFreeBrief(
      { website_url: "acme.com", email: "me@example.com" },
      { ...ctx, counts: { ...none, company: FREE_BRIEF.emailsPerCompany } },
      now,
    );
    expect(over.data).toMatchObject({ email_withheld: "company" });
    expect(over.data).not.toHaveProperty("email");
    expect(over.data).not.toHaveProperty("confirm");
    const [noEmail] = decideRequestFreeBrief({ website_url: "acme.com" }, ctx, now);
    expect(noEmail.data).not.toHaveProperty("email_withheld");
  });

  test("the company limit is checked first, then the address, then the network", () => {
    expect(emailWithheld(none)).toBeUndefined();
    expect(emailWithheld({ company: 1, recipient: 99, network: 99 })).toBe("company");
    expect(emailWithheld({ company: 0, recipient: FREE_BRIEF.emailsPerRecipient, network: 99 })).toBe(
      "recipient",
    );
    expect(emailWithheld({ company: 0, recipient: 0, network: FREE_BRIEF.emailsPerNetwork })).toBe("network");
  });
});

describe("reasons are our own words", () => {
  test("every failure code maps to a fixed phrase; an unknown one to 'unreachable'", () => {
    expect(failureReason("timeout")).toBe("unreachable");
    expect(failureReason("http_error")).toBe("http_error");
    expect(failureReason("text/x-urgent verify your account")).toBe("unreachable");
    const e = decideFreeBriefAnswered(1, { outcome: "failed", reason: "robots_disallowed" }, undefined, now);
    expect(e.data).toMatchObject({ reason: FAILURE_REASONS.robots_disallowed });
  });
});

describe("confirmation", () => {
  const pending = {
    id: 7,
    domain: "acme.com",
    confirmDigest: digest("tok"),
    expiresAt: "2026-11-22T12:00:00.000Z",
  };

  test("a sent confirmation keeps its token's digest and when it expires; a failed one keeps nothing", () => {
    const sent = decideFreeBriefConfirmationEmailed(7, 1, now, undefined, 5, digest("tok"));
    expect(sent.data).toMatchObject({
      ok: true,
      confirm_digest: digest("tok"),
      expires_at: pending.expiresAt,
    });
    const failed = decideFreeBriefConfirmationEmailed(7, 1, now, "refused", 5, digest("tok"));
    expect(failed.data).not.toHaveProperty("confirm_digest");
  });

  test("the right token before it expires confirms; a wrong, used or expired one does not", () => {
    expect(decideConfirmFreeBrief(pending, digest("tok"), now)[0].type).toBe("FreeBriefConfirmed");
    expect(() => decideConfirmFreeBrief(pending, digest("other"), now)).toThrow(DomainError);
    expect(() => decideConfirmFreeBrief(undefined, digest("tok"), now)).toThrow(
      "not valid, or was already used",
    );
    expect(() => decideConfirmFreeBrief(pending, digest("tok"), new Date(pending.expiresAt))).toThrow(
      "has expired",
    );
  });
});

describe("review", () => {
  test("only a held brief is reviewed, once", () => {
    const [e] = decideReviewPublicBrief({ id: 3, review: "pending" }, "published", now);
    expect(e.data).toEqual({ id: 3, decision: "published", reviewed_at: now.toISOString() });
    expect(() => decideReviewPublicBrief({ id: 3, review: "published" }, "rejected", now)).toThrow(
      "not waiting for review",
    );
    expect(() => decideReviewPublicBrief(undefined, "published", now)).toThrow(DomainError);
  });
});
