// The engagement deciders are pure: plain state and a command in, events (or a refusal) out, no database.
import { describe, expect, test } from "bun:test";
import {
  decideAddBattlecardNote,
  decideAddDigestNote,
  decideAddSignalNote,
  decidePinDigest,
  decidePinSignal,
  decideRateDigest,
  decideRateSignal,
  decideSaveSignal,
  NOTE_MAX,
} from "../../src/domain/engagement.ts";
import { DomainError } from "../../src/domain/errors.ts";
import { InvalidInput } from "../../src/domain/validate.ts";
import type { Caller } from "../../src/domain/watchlist.ts";

const now = new Date("2026-03-02T10:00:00.000Z");
const ada: Caller = { orgId: 7, actor: "user:3", actorName: "Ada" };
const bot: Caller = { orgId: 7, actor: "key:9" };
const signal = { id: 41, pinned: false, saved: false };
const digest = { id: 12, pinned: true };

function refusal(f: () => unknown): { kind: string; code?: string; field?: string; message: string } {
  try {
    f();
  } catch (e) {
    if (e instanceof DomainError) return { kind: "domain", code: e.code, message: e.message };
    if (e instanceof InvalidInput) return { kind: "input", field: e.field, message: e.message };
    throw e;
  }
  throw new Error("expected a refusal");
}

describe("signals", () => {
  test("pin: an unpinned signal gets one SignalPinSet on its stream; pinning it again changes nothing", () => {
    const d = decidePinSignal(signal, { signal_id: 41, pinned: true }, ada, now);
    expect(d).toEqual({
      events: [
        {
          type: "SignalPinSet",
          orgId: 7,
          streamType: "signal",
          streamId: "41",
          data: { signal_id: 41, pinned: true, actor: "user:3", at: "2026-03-02T10:00:00.000Z" },
        },
      ],
      result: { changed: true },
    });
    expect(decidePinSignal({ ...signal, pinned: true }, { signal_id: 41, pinned: true }, ada, now)).toEqual({
      events: [],
      result: { changed: false },
    });
    expect(
      decidePinSignal({ ...signal, pinned: true }, { signal_id: 41, pinned: false }, ada, now).events,
    ).toHaveLength(1);
  });

  test("save follows the caller's own saved flag, not the pin", () => {
    const pinnedNotSaved = { id: 41, pinned: true, saved: false };
    const d = decideSaveSignal(pinnedNotSaved, { signal_id: 41, saved: true }, bot, now);
    expect(d.result).toEqual({ changed: true });
    expect(d.events[0]).toMatchObject({ type: "SignalSaveSet", data: { saved: true, actor: "key:9" } });
    expect(
      decideSaveSignal({ ...pinnedNotSaved, saved: true }, { signal_id: 41, saved: true }, bot, now).events,
    ).toEqual([]);
  });

  test("a signal the workspace cannot see is not_found, for every signal command", () => {
    for (const f of [
      () => decidePinSignal(undefined, { signal_id: 5, pinned: true }, ada, now),
      () => decideSaveSignal(undefined, { signal_id: 5, saved: true }, ada, now),
      () => decideAddSignalNote(undefined, { signal_id: 5, body: "hello" }, ada, now, 99),
      () => decideRateSignal(undefined, { signal_id: 5, useful: true }, ada, now),
    ])
      expect(refusal(f)).toEqual({
        kind: "domain",
        code: "not_found",
        message: "No signal with that id in this workspace.",
      });
  });

  test("a note carries the given id, the trimmed body and the author's name when there is one", () => {
    const d = decideAddSignalNote(signal, { signal_id: 41, body: "  Ask about pricing.  " }, ada, now, 1234);
    expect(d.result).toEqual({ note_id: 1234 });
    expect(d.events).toEqual([
      {
        type: "SignalNoteAdded",
        orgId: 7,
        streamType: "signal",
        streamId: "41",
        data: {
          id: 1234,
          signal_id: 41,
          body: "Ask about pricing.",
          author: "user:3",
          author_name: "Ada",
          at: "2026-03-02T10:00:00.000Z",
        },
      },
    ]);
    const anon = decideAddSignalNote(signal, { signal_id: 41, body: "x" }, bot, now, 1).events[0].data;
    expect("author_name" in anon).toBe(false);
  });

  test("a blank or too long note is refused before the signal is looked at", () => {
    expect(
      refusal(() => decideAddSignalNote(undefined, { signal_id: 5, body: "   " }, ada, now, 1)),
    ).toMatchObject({
      kind: "input",
      field: "body",
    });
    const long = "é".repeat(NOTE_MAX + 1);
    expect(
      refusal(() => decideAddSignalNote(signal, { signal_id: 41, body: long }, ada, now, 1)).message,
    ).toBe(`body is longer than ${NOTE_MAX} characters`);
    // Counted in characters, not UTF-16 units: exactly NOTE_MAX astral characters are fine.
    expect(
      decideAddSignalNote(signal, { signal_id: 41, body: "😀".repeat(NOTE_MAX) }, ada, now, 1).events,
    ).toHaveLength(1);
  });

  test("rating: reasons are deduplicated and only for useful=false; unknown reasons are refused", () => {
    const d = decideRateSignal(
      signal,
      { signal_id: 41, useful: false, reasons: ["duplicate", "too_late", "duplicate"], comment: " late " },
      ada,
      now,
    );
    expect(d.events[0].data).toEqual({
      signal_id: 41,
      actor: "user:3",
      useful: false,
      reasons: ["duplicate", "too_late"],
      comment: "late",
      at: "2026-03-02T10:00:00.000Z",
    });
    expect(
      refusal(() => decideRateSignal(signal, { signal_id: 41, useful: true, reasons: ["other"] }, ada, now)),
    ).toMatchObject({ field: "reasons" });
    expect(
      refusal(() => decideRateSignal(signal, { signal_id: 41, useful: true, comment: "" }, ada, now)),
    ).toMatchObject({ field: "comment" });
    expect(
      refusal(() =>
        decideRateSignal(signal, { signal_id: 41, useful: false, reasons: ["boring"] }, ada, now),
      ),
    ).toMatchObject({ field: "reasons" });
    expect(decideRateSignal(signal, { signal_id: 41, useful: true }, ada, now).events[0].data).toEqual({
      signal_id: 41,
      actor: "user:3",
      useful: true,
      at: "2026-03-02T10:00:00.000Z",
    });
  });
});

describe("digests", () => {
  test("pin names the digest's numeric id, even when the command named it by slug", () => {
    const unpin = decidePinDigest(digest, { digest: "weekly-2026-09", pinned: false }, ada, now);
    expect(unpin.result).toEqual({ digest_id: 12, changed: true });
    expect(unpin.events[0]).toMatchObject({
      type: "DigestPinSet",
      streamId: "12",
      data: { digest_id: 12, pinned: false },
    });
    expect(decidePinDigest(digest, { digest: 12, pinned: true }, ada, now)).toEqual({
      events: [],
      result: { digest_id: 12, changed: false },
    });
  });

  test("an unknown digest is not_found; a note and a rating are checked first", () => {
    expect(refusal(() => decidePinDigest(undefined, { digest: "nope", pinned: true }, ada, now)).code).toBe(
      "not_found",
    );
    expect(refusal(() => decideAddDigestNote(undefined, { digest: 1, body: "" }, ada, now, 1)).field).toBe(
      "body",
    );
    expect(refusal(() => decideRateDigest(undefined, { digest: 1 }, ada, now)).field).toBe("score");
    expect(refusal(() => decideRateDigest(undefined, { digest: 1, score: 4 }, ada, now)).code).toBe(
      "not_found",
    );
  });

  test("a rating holds a whole score from 1 to 5, what is missing, or both", () => {
    for (const score of [0, 6, 2.5])
      expect(refusal(() => decideRateDigest(digest, { digest: 12, score }, ada, now)).field).toBe("score");
    expect(decideRateDigest(digest, { digest: 12, missing: "  pricing  " }, ada, now).events[0].data).toEqual(
      {
        digest_id: 12,
        actor: "user:3",
        missing: "pricing",
        at: "2026-03-02T10:00:00.000Z",
      },
    );
    expect(decideRateDigest(digest, { digest: 12, score: 5 }, ada, now).events[0].data).toMatchObject({
      score: 5,
    });
  });

  test("a note goes on the digest's stream under the given id", () => {
    const d = decideAddDigestNote(digest, { digest: "weekly", body: "Share with sales" }, ada, now, 77);
    expect(d.result).toEqual({ digest_id: 12, note_id: 77 });
    expect(d.events[0]).toMatchObject({
      type: "DigestNoteAdded",
      streamType: "digest",
      streamId: "12",
      data: { id: 77, digest_id: 12 },
    });
  });
});

test("a battlecard note goes on the competitor's stream", () => {
  const d = decideAddBattlecardNote(
    { id: 3 },
    { competitor_id: 3, body: "Discounts at quarter end." },
    ada,
    now,
    500,
  );
  expect(d).toEqual({
    events: [
      {
        type: "BattlecardNoteAdded",
        orgId: 7,
        streamType: "competitor",
        streamId: "3",
        data: {
          id: 500,
          competitor_id: 3,
          body: "Discounts at quarter end.",
          author: "user:3",
          author_name: "Ada",
          at: "2026-03-02T10:00:00.000Z",
        },
      },
    ],
    result: { competitor_id: 3, note_id: 500 },
  });
  expect(
    refusal(() => decideAddBattlecardNote({ id: 3 }, { competitor_id: 3, body: "\n\t" }, ada, now, 1)).field,
  ).toBe("body");
});
