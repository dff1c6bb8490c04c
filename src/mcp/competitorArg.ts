// A competitor named the way people name it: every tool that takes competitor_id also takes `competitor`, its
// name or its domain ("Globex", "globex.com", "https://www.globex.com/pricing"), resolved among the
// workspace's tracked competitors. An exact name or domain wins; otherwise one that starts with or contains
// the words; several matches answer "ambiguous" with the candidates, none answers with the closest names.
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { competitors } from "../db/schema.ts";
import { LIST } from "../domain/limits.ts";
import type { Services } from "../services.ts";
import { ToolError } from "./tool.ts";

// Undescribed: the server's instructions say once that competitor takes a name or domain for competitor_id.
export const competitorArg = z.string().min(1).max(300).optional();
/** A competitor's id, as the tools take it. */
export const competitorIdArg = z.number().int().positive();

interface Candidate {
  id: number;
  name: string;
  website_url: string | null;
}

/** `https://www.Globex.com/pricing` → `globex.com`; a bare word stays itself, lower-cased. */
export function hostOf(v: string): string {
  const s = v.trim().toLowerCase();
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:www\.)?([^/?#:\s]+)/.exec(s);
  return m ? m[1]! : s;
}

const fold = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();

/** The workspace's tracked competitors (competitors_listed index, bounded like the list itself). */
async function tracked(s: Services, orgId: number): Promise<Candidate[]> {
  return s.database.db
    .select({ id: competitors.id, name: competitors.name, website_url: competitors.websiteUrl })
    .from(competitors)
    .where(and(eq(competitors.orgId, orgId), sql`${competitors.listed} = 1`))
    .orderBy(asc(competitors.prioritySort), asc(competitors.trackedSort), asc(competitors.id))
    .limit(LIST.trackedCompetitors);
}

const label = (c: Candidate) =>
  `${c.name} (competitor_id ${c.id}${c.website_url ? `, ${hostOf(c.website_url)}` : ""})`;

/** The id `competitor` names in the workspace, or a ToolError that says what to send instead. */
export async function resolveCompetitor(s: Services, orgId: number, competitor: string): Promise<number> {
  const all = await tracked(s, orgId);
  const q = fold(competitor);
  const host = hostOf(competitor);
  const site = (c: Candidate) => (c.website_url ? hostOf(c.website_url) : "");
  // The name of a site without its suffix: globex.example → globex.
  const stem = (h: string) => h.replace(/\.[a-z0-9-]+$/, "");
  const tiers: ((c: Candidate) => boolean)[] = [
    (c) => fold(c.name) === q || (site(c) !== "" && site(c) === host),
    (c) => site(c) !== "" && (stem(site(c)) === q || stem(site(c)) === stem(host)),
    (c) => fold(c.name).startsWith(q),
    (c) => fold(c.name).includes(q) || (q.length >= 3 && site(c).includes(q)),
  ];
  for (const tier of tiers) {
    const found = all.filter(tier);
    if (found.length === 1) return found[0]!.id;
    if (found.length > 1)
      throw new ToolError(
        "ambiguous",
        `"${competitor}" matches ${found.length} tracked competitors: did you mean ${found
          .slice(0, 5)
          .map(label)
          .join(" or ")}? Send its competitor_id.`,
        {
          argument: "competitor",
          candidates: found.slice(0, 10).map((c) => ({ competitor_id: c.id, name: c.name })),
        },
      );
  }
  const names = all.slice(0, 10).map(label);
  throw new ToolError(
    "not_found",
    `No tracked competitor is named "${competitor}" or has that domain in this workspace. ${
      names.length ? `Tracked: ${names.join(", ")}${all.length > 10 ? " …" : ""}. ` : ""
    }list_competitors lists them all; add_competitor tracks a new one.`,
    { argument: "competitor" },
  );
}
