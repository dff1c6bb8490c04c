// Sending something that may fail (a delivery, a free brief's email): the outcome of one try — done, due again
// after a growing pause, or given up after the last. One rule for every sender.
export const BACKOFF_MINUTES = [1, 5, 30, 120, 360];
export const MAX_ATTEMPTS = BACKOFF_MINUTES.length + 1;

export interface AttemptOutcome {
  ok: boolean;
  at: string;
  error?: string;
  /** When the next try is due (a failed try that is not the last). */
  next_attempt_at?: string;
  gave_up?: boolean;
}

/** The outcome of try number `attempt` (from 1) made at `at`; `error` when it failed. */
export function attemptOutcome(
  attempt: number,
  at: Date,
  error: string | undefined,
  max = MAX_ATTEMPTS,
): AttemptOutcome {
  if (error === undefined) return { ok: true, at: at.toISOString() };
  if (attempt >= max) return { ok: false, at: at.toISOString(), error, gave_up: true };
  const pause = BACKOFF_MINUTES[Math.min(attempt, BACKOFF_MINUTES.length) - 1] * 60_000;
  return {
    ok: false,
    at: at.toISOString(),
    error,
    next_attempt_at: new Date(at.getTime() + pause).toISOString(),
  };
}
