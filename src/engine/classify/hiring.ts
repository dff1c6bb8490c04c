// Hiring rules: how many roles are open, leadership openings (roles.ts), and new locations.
import type { Change } from "../compare/types.ts";
import { findRole } from "./roles.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import type { Severity } from "./types.ts";
import { clip, pct, slug } from "./wording.ts";

export const hiring = rule(
  {
    id: "hiring",
    family: "hiring",
    reads: ["job_added", "job_removed"],
    gives: { hiring: ["hiring_surge", "hiring_slowdown", "key_role_opening", "new_location"] },
    severity:
      "open roles ±50% and by ≥ 3 (or 0 → ≥ 3): high, ±20% and by ≥ 2: medium; a C-level or executive opening: high, a leadership one: medium; a new location: medium",
    when: "Open roles on a job board or careers page: how many (aggregated per source), a new leadership opening (roles.ts), roles in a location the previous version did not have.",
  },
  function hiring(r: Rules, jobs: Change[]): void {
    const counts = jobs.find((c) => c.counts)?.counts;
    const addedJobs = jobs.filter((c) => c.kind === "job_added");
    const removedJobs = jobs.filter((c) => c.kind === "job_removed");
    const src = jobs[0];
    const conf = src.source === "jobs" && r.ctx.pageKind !== "careers" ? 0.9 : 0.8;
    const confReason =
      src.source === "jobs" && r.ctx.pageKind !== "careers"
        ? "open roles from the job board"
        : "open roles listed on the careers page";
    if (counts) {
      const { before, after } = counts;
      const diff = after - before;
      const ratio = before > 0 ? diff / before : diff > 0 ? Number.POSITIVE_INFINITY : 0;
      const abs = Math.abs(diff);
      let severity: Severity | null = null;
      if ((Math.abs(ratio) >= 0.5 && abs >= 3) || (before === 0 && after >= 3)) severity = "high";
      else if (Math.abs(ratio) >= 0.2 && abs >= 2) severity = "medium";
      if (severity) {
        const up = diff > 0;
        const change = before > 0 ? ` (${pct(ratio)})` : "";
        const list = (up ? addedJobs : removedJobs).map((c) => c.excerpt);
        push(r, {
          ...stateChange("hiring:volume", String(before), String(after)),
          category: "hiring",
          type: up ? "hiring_surge" : "hiring_slowdown",
          severity,
          severity_reasons: [
            `open roles ${up ? "rose" : "fell"} from ${before} to ${after}${change} (${severity === "high" ? "≥ 50%" : "≥ 20%"})`,
          ],
          confidence: conf,
          confidence_reasons: [confReason],
          title: `${r.name} ${up ? "grows" : "cuts"} open roles from ${before} to ${after}${change}`,
          summary: `${r.name} lists ${after} open roles, ${up ? "up" : "down"} from ${before}${change}. ${up ? "New" : "Closed"}: ${list.slice(0, 6).join("; ")}${list.length > 6 ? ` and ${list.length - 6} more` : ""} (${src.url}).`,
          evidence: [
            evidence(
              r,
              src,
              `Open roles: ${before} → ${after}. ${up ? "New" : "Closed"}: ${list.slice(0, 10).join("; ")}`,
            ),
          ],
        });
      }
    }
    for (const c of addedJobs) {
      const t = c.subject;
      const role = findRole(t);
      if (!role) continue;
      const exec = role.level !== "leadership";
      push(r, {
        key: `hiring:role:${slug(t)}`,
        category: "hiring",
        type: "key_role_opening",
        severity: exec ? "high" : "medium",
        severity_reasons: [exec ? `an executive role opens: ${t}` : `a leadership role opens: ${t}`],
        confidence: conf,
        confidence_reasons: [confReason],
        title: `${r.name} is hiring a ${clip(t, 120)}${c.location ? ` (${c.location})` : ""}`,
        summary: `${r.name} opened a ${t} role${c.department ? ` in ${c.department}` : ""}${c.location ? `, ${c.location}` : ""} (${c.link ?? c.url}).`,
        evidence: [evidence(r, c, `New role: ${c.excerpt}`, c.link ?? c.url)],
        subject: t,
      });
    }
    // Locations never seen before on this source (needs the previous snapshot).
    const prevJobs = r.ctx.previous?.jobs;
    if (prevJobs) {
      const known = new Set(prevJobs.map((j) => (j.location ?? "").toLowerCase().trim()));
      const fresh = new Map<string, Change[]>();
      for (const c of addedJobs) {
        const loc = c.location?.trim();
        if (!loc || /^remote\b/i.test(loc) || known.has(loc.toLowerCase())) continue;
        fresh.set(loc, [...(fresh.get(loc) ?? []), c]);
      }
      for (const [loc, cs] of fresh) {
        push(r, {
          key: `hiring:location:${slug(loc)}`,
          category: "hiring",
          type: "new_location",
          severity: "medium",
          severity_reasons: [`a new hiring location: ${loc}`],
          confidence: conf,
          confidence_reasons: [confReason, "no open role there in the previous version"],
          title: `${r.name} starts hiring in ${loc} (${cs.length} ${cs.length === 1 ? "role" : "roles"})`,
          summary: `${r.name} lists roles in ${loc} for the first time: ${cs
            .map((c) => c.subject)
            .slice(0, 6)
            .join("; ")} (${src.url}).`,
          evidence: cs.slice(0, 5).map((c) => evidence(r, c, `New role: ${c.excerpt}`, c.link ?? c.url)),
          subject: loc,
        });
      }
    }
  },
);
