// The workspace's first brief: its first research run, during which the company profile and ICP are locked.
import type { NewEvent } from "../../events/catalog.ts";
import { orgStream, type WorkspaceSettings } from "./workspace.ts";

/** The workspace's first brief starts (the first research of a workspace) or finishes (its last run ends):
 * the profile and ICP are locked meanwhile. */
export function decideFirstBrief(st: WorkspaceSettings, step: "start" | "finish", now: Date): NewEvent[] {
  if (step === "start") {
    if (st.firstBrief !== null) return [];
    return [{ type: "FirstBriefStarted", ...orgStream(st.orgId), data: { started_at: now.toISOString() } }];
  }
  if (st.firstBrief !== "running") return [];
  return [{ type: "FirstBriefFinished", ...orgStream(st.orgId), data: { finished_at: now.toISOString() } }];
}
