// Hiring rules: every net change in open roles is a signal. A leadership opening (roles.ts), roles in a location
// or a team (department) the previous version did not have, and how many roles are open: a surge or a cut by the
// thresholds below, else a low signal for the postings that opened or closed and no other rule reported. A remote
// role counts like any other.
import type { Change } from "../compare/types.ts";
import { findRole } from "./roles.ts";
import { evidence, push, type Rules, rule, stateChange } from "./rule.ts";
import type { Severity } from "./types.ts";
import { clip, pct, slug } from "./wording.ts";

const lower = (s: string | undefined) => (s ?? "").toLowerCase().trim();

export const hiring = rule(
  {
    id: "hiring",
    family: "hiring",
    reads: ["job_added", "job_removed"],
    gives: { hiring: ["hiring_surge", "hiring_slowdown", "key_role_opening", "new_location"] },
    severity:
      "open roles ±50% and by ≥ 3 (or 0 → ≥ 3): high, ±20% and by ≥ 2: medium, any other net change: low (its postings, when no other rule reported them); a C-level or executive opening: high, a leadership one: medium; a new location or a new team (a department with no open role before, `hiring_surge`): medium",
    when: "Open roles on a job board or careers page: how many (aggregated per source), a new leadership opening (roles.ts), roles in a location or department the previous version did not have; remote roles included.",
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
    /** Openings a rule of their own reported (a postings signal does not repeat them). */
    const reported = new Set<Change>();

    for (const c of addedJobs) {
      const t = c.subject;
      const role = findRole(t);
      if (!role) continue;
      reported.add(c);
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

    // Locations and teams never seen before on this source (needs the previous snapshot). A team only counts
    // where the previous version named departments at all (a list without them has no teams to compare).
    const prevJobs = r.ctx.previous?.jobs;
    if (prevJobs) {
      const knownPlaces = new Set(prevJobs.map((j) => lower(j.location)));
      const knownTeams = new Set(prevJobs.flatMap((j) => (j.department ? [lower(j.department)] : [])));
      const places = new Map<string, Change[]>();
      const teams = new Map<string, Change[]>();
      for (const c of addedJobs) {
        const loc = c.location?.trim();
        if (loc && !knownPlaces.has(lower(loc))) places.set(loc, [...(places.get(loc) ?? []), c]);
        const dep = c.department?.trim();
        if (dep && knownTeams.size > 0 && !knownTeams.has(lower(dep)))
          teams.set(dep, [...(teams.get(dep) ?? []), c]);
      }
      for (const [loc, cs] of places) {
        for (const c of cs) reported.add(c);
        const remote = /^remote\b/i.test(loc);
        push(r, {
          key: `hiring:location:${slug(loc)}`,
          category: "hiring",
          type: "new_location",
          severity: "medium",
          severity_reasons: [`a new hiring location: ${loc}`],
          confidence: conf,
          confidence_reasons: [confReason, "no open role there in the previous version"],
          title: `${r.name} starts hiring ${remote ? `remotely: ${loc}` : `in ${loc}`} (${cs.length} ${cs.length === 1 ? "role" : "roles"})`,
          summary: `${r.name} lists roles in ${loc} for the first time: ${cs
            .map((c) => c.subject)
            .slice(0, 6)
            .join("; ")} (${src.url}).`,
          evidence: cs.slice(0, 5).map((c) => evidence(r, c, `New role: ${c.excerpt}`, c.link ?? c.url)),
          subject: loc,
        });
      }
      for (const [dep, all] of teams) {
        // A team whose every opening another rule already reported is not said twice.
        if (all.every((c) => reported.has(c))) continue;
        for (const c of all) reported.add(c);
        push(r, {
          key: `hiring:team:${slug(dep)}`,
          category: "hiring",
          type: "hiring_surge",
          severity: "medium",
          severity_reasons: [`a new team: ${dep} had no open role before`],
          confidence: conf,
          confidence_reasons: [confReason, "no open role in that department in the previous version"],
          title: `${r.name} starts hiring for ${dep} (${all.length} ${all.length === 1 ? "role" : "roles"})`,
          summary: `${r.name} lists ${dep} roles for the first time: ${all
            .map((c) => c.subject)
            .slice(0, 6)
            .join("; ")} (${src.url}).`,
          evidence: all.slice(0, 5).map((c) => evidence(r, c, `New role: ${c.excerpt}`, c.link ?? c.url)),
          subject: dep,
        });
      }
    }

    if (!counts) return;
    const { before, after } = counts;
    const diff = after - before;
    if (diff === 0) return;
    const up = diff > 0;
    const ratio = before > 0 ? diff / before : Number.POSITIVE_INFINITY;
    const abs = Math.abs(diff);
    let severity: Severity = "low";
    if ((Math.abs(ratio) >= 0.5 && abs >= 3) || (before === 0 && after >= 3)) severity = "high";
    else if (Math.abs(ratio) >= 0.2 && abs >= 2) severity = "medium";
    const moved = up ? addedJobs : removedJobs;
    // A small net change whose postings other rules already reported is not said again.
    const own = severity === "low" ? moved.filter((c) => !reported.has(c)) : moved;
    if (own.length === 0) return;
    const change = before > 0 ? ` (${pct(ratio)})` : "";
    const list = own.map((c) => c.excerpt);
    const single = severity === "low" && own.length === 1 && abs === 1;
    push(r, {
      ...stateChange("hiring:volume", String(before), String(after)),
      category: "hiring",
      type: up ? "hiring_surge" : "hiring_slowdown",
      severity,
      severity_reasons: [
        severity === "low"
          ? `open roles ${up ? "rose" : "fell"} from ${before} to ${after} (${single ? "a single posting" : "< 20%"})`
          : `open roles ${up ? "rose" : "fell"} from ${before} to ${after}${change} (${severity === "high" ? "≥ 50%" : "≥ 20%"})`,
      ],
      confidence: conf,
      confidence_reasons: [confReason],
      title: single
        ? `${r.name} ${up ? "opens" : "closes"} a role: ${clip(own[0]!.excerpt, 140)}`
        : `${r.name} ${up ? "grows" : "cuts"} open roles from ${before} to ${after}${change}`,
      summary: `${r.name} lists ${after} open roles, ${up ? "up" : "down"} from ${before}${change}. ${up ? "New" : "Closed"}: ${list.slice(0, 6).join("; ")}${list.length > 6 ? ` and ${list.length - 6} more` : ""} (${src.url}).`,
      evidence: [
        evidence(
          r,
          src,
          `Open roles: ${before} → ${after}. ${up ? "New" : "Closed"}: ${list.slice(0, 10).join("; ")}`,
        ),
      ],
    });
  },
);
