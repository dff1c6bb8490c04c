// Turns at a host kept in the database (src/db/hostTurns.ts) when several instances may share it: a request
// takes the host's next start time in one statement, so two instances reading competitors whose pages are on
// one host (a job board provider, a public API) ask it no more often than one instance does. On a local file
// there is one instance, and the fetcher's own gate is the whole rule.
import { sharedByInstances } from "../../db/client.ts";
import { sweepHostTurns, takeHostTurn } from "../../db/hostTurns.ts";
import type { Services } from "../../services.ts";
import type { HostTurns } from "./gate.ts";

const SWEEP_EVERY_MS = 60 * 60 * 1000;

export function hostTurnsOf(s: Pick<Services, "database">): HostTurns | undefined {
  if (!sharedByInstances(s.database.url)) return undefined;
  let sweptAt = 0;
  return {
    async take(host, now, pauseMs) {
      if (now - sweptAt >= SWEEP_EVERY_MS) {
        sweptAt = now;
        // A turn an hour old no longer delays anyone.
        await sweepHostTurns(s.database, now - SWEEP_EVERY_MS).catch(() => {});
      }
      return takeHostTurn(s.database, host, now, pauseMs);
    },
  };
}
