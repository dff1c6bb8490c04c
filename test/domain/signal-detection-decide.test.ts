// decideDetectSignals on plain state, no database: new signals take the pre-allocated ids in the order they
// open, the same launch on two sources is one signal, a superseding change closes the open one `by` the new id,
// a revert closes it, and evidence seen again adds nothing.
import { describe, expect, test } from "bun:test";
import type { NewEvent } from "../../events/catalog.ts";
import {
  type DetectSignalsCommand,
  decideDetectSignals,
  type OpenEngineSignal,
  signalsToOpen,
} from "../../src/domain/signalDetection.ts";
import type { SignalDraft } from "../../src/domain/signalDraft.ts";

const AT = "2026-03-04T10:00:00.000Z";

function draft(over: Partial<SignalDraft> & { key: string }): SignalDraft {
  return {
    category: "product",
    type: "feature_launch",
    severity: "medium",
    severity_reasons: ["a new capability"],
    confidence: 0.7,
    confidence_reasons: ["named on the blog"],
    title: "Globex launches Saved questions",
    summary: "Saved questions are out.",
    evidence: [{ source_url: "https://globex.example/blog/saved", text: "Introducing saved questions" }],
    ...over,
  };
}

const cmd = (drafts: SignalDraft[]): DetectSignalsCommand => ({
  orgId: 7,
  competitorId: 3,
  competitorName: "Globex",
  drafts,
  now: AT,
});

const priceSignal: OpenEngineSignal = {
  id: 100,
  dedupKey: "price:team",
  category: "pricing",
  type: "price_increase",
  subject: "Team",
  valueBefore: "49",
  valueAfter: "59",
  record: {
    title: "Team plan up to $59",
    status: "open",
    severity: "high",
    confidence: 0.9,
    evidence: [{ source_url: "https://globex.example/pricing", text: "Team $59" }],
  },
};

const shape = (events: NewEvent[]) => events.map((e) => `${e.type}:${e.streamId}`);

describe("decideDetectSignals", () => {
  test("new signals take the given ids in the order they open; one launch on two sources is one signal", () => {
    const drafts = [
      draft({ key: "launch:saved-questions", subject: "Saved questions" }),
      draft({
        key: "changelog:saved-questions-in-globex",
        type: "release",
        subject: "Saved questions in Globex",
        evidence: [{ source_url: "https://globex.example/changelog", text: "Saved questions" }],
      }),
      draft({
        key: "hiring:surge",
        category: "hiring",
        type: "hiring_surge",
        subject: undefined,
        title: "Hiring",
      }),
    ];
    expect(signalsToOpen([], cmd(drafts))).toBe(2);
    const out = decideDetectSignals([], cmd(drafts), [501, 502]);
    expect(shape(out.events)).toEqual(["SignalDetected:501", "SignalDetected:502"]);
    expect(out.created).toEqual([501, 502]);
    const launch = out.events[0].data as {
      key: string;
      record: { evidence: unknown[]; confidence: number };
      confidence_reasons: string[];
    };
    expect(launch.key).toBe("engine:3:launch:saved-questions:501");
    expect(launch.record.evidence).toHaveLength(2);
    expect(launch.record.confidence).toBe(0.75);
    expect(launch.confidence_reasons).toEqual(["named on the blog", "seen on 2 sources"]);
    expect(() => decideDetectSignals([], cmd(drafts), [501])).toThrow("2 signal ids needed, 1 given");
  });

  test("a change to another value supersedes the open signal: closed by the new signal's id", () => {
    const again = draft({
      key: "price:team",
      category: "pricing",
      type: "price_increase",
      subject: "Team",
      supersedes: "price:team",
      value: { before: "59", after: "69" },
      evidence: [{ source_url: "https://globex.example/pricing", text: "Team $69" }],
    });
    expect(signalsToOpen([priceSignal], cmd([again]))).toBe(1);
    const out = decideDetectSignals([priceSignal], cmd([again]), [600]);
    expect(shape(out.events)).toEqual(["SignalClosed:100", "SignalDetected:600"]);
    expect(out.events[0].data).toEqual({ id: 100, closed_at: AT, reason: "superseded", by: 600 });
    expect((out.events[1].data as { supersedes: number }).supersedes).toBe(100);
    expect([out.closed, out.created]).toEqual([[100], [600]]);
  });

  test("a change back to the old value reverts the open signal; the same evidence again adds nothing", () => {
    // Matched by the open signal's dedup key, as the classifier names it.
    const reverting = draft({
      key: "price:team",
      category: "pricing",
      type: "price_decrease",
      reverts: "price:team",
      value: { before: "59", after: "49" },
      evidence: [{ source_url: "https://globex.example/pricing", text: "Team $49" }],
    });
    expect(signalsToOpen([priceSignal], cmd([reverting]))).toBe(0);
    const out = decideDetectSignals([priceSignal], cmd([reverting]), []);
    expect(out.events).toEqual([
      {
        type: "SignalClosed",
        orgId: 7,
        streamType: "signal",
        streamId: "100",
        data: { id: 100, closed_at: AT, reason: "reverted", evidence: reverting.evidence },
      },
    ]);
    const seen = draft({
      key: "price:team",
      category: "pricing",
      type: "price_increase",
      severity: "low",
      confidence: 0.5,
      value: { before: "49", after: "59" },
      evidence: priceSignal.record.evidence,
    });
    expect(decideDetectSignals([priceSignal], cmd([seen]), [])).toEqual({
      events: [],
      created: [],
      updated: [],
      closed: [],
    });
    const corroborated = {
      ...seen,
      evidence: [{ source_url: "https://globex.example/blog", text: "New prices" }],
    };
    const more = decideDetectSignals([priceSignal], cmd([corroborated]), []);
    expect(shape(more.events)).toEqual(["SignalEvidenceAdded:100"]);
    expect(more.events[0].data).toEqual({
      id: 100,
      evidence: corroborated.evidence,
      last_seen_at: AT,
      confidence: 0.95,
      confidence_reasons: ["seen on 2 sources"],
    });
  });
});
