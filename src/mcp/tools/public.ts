// Public tools: need no credential and read only the published public library (public briefs, guides), never a
// workspace — even when the caller sends a credential.
import { z } from "zod";
import {
  getPublicBrief,
  publicLinks,
  searchGuides,
  searchPublicBriefs,
} from "../../db/queries/publicLibrary.ts";
import { SLUG } from "../../domain/publicLibrary.ts";
import { isoTime } from "../schemas.ts";
import { defineTool, READ_ONLY, ToolError } from "../tool.ts";

const company = z.object({ slug: z.string(), name: z.string(), domain: z.string().optional() });

const briefListItem = z.object({
  company,
  slug: z.string(),
  title: z.string(),
  summary: z.string().optional(),
  published_at: isoTime,
  finding_count: z.number().int(),
  url: z.string().describe("The brief's public page."),
});

/** An optional search text of 1 to 200 characters. */
const textArg = (what: string) => z.string().min(1).max(200).optional().describe(what);

const slugArg = (what: string) =>
  z.string().min(1).max(120).regex(SLUG, "lowercase letters, digits and hyphens").optional().describe(what);

export const searchPublicBriefsTool = defineTool({
  name: "search_public_briefs",
  siteText: ["briefs[]"],
  title: "Search public briefs",
  description: "Public competitive briefs by words or company, newest first; no arguments lists the newest.",
  input: {
    query: textArg("Words that must all appear."),
    company: textArg("Name, slug or domain."),
    limit: z.number().int().min(1).max(50).default(10),
  },
  output: { briefs: z.array(briefListItem) },
  annotations: READ_ONLY,
  access: "public",
  run: async ({ s, base }, a) => ({
    briefs: await searchPublicBriefs(
      s.database,
      { query: a.query, company: a.company, limit: a.limit },
      base,
    ),
  }),
});

/** `{base}/briefs/{company}/{slug}` (or without the slug) to its parts; the host is not checked. */
function parseBriefUrl(url: string, base: string): { company: string; slug?: string } {
  let u: URL;
  try {
    u = new URL(url, base);
  } catch {
    throw new ToolError(
      "invalid_argument",
      "url must be a brief page URL such as {base_url}/briefs/acme/q3-pricing.",
      {
        argument: "url",
      },
    );
  }
  const m = /^\/briefs\/([^/]+)(?:\/([^/]+))?\/?$/.exec(u.pathname);
  if (!m)
    throw new ToolError(
      "invalid_argument",
      `url must name a public brief page: ${base}/briefs/{company_slug}/{slug}.`,
      { argument: "url" },
    );
  return {
    company: decodeURIComponent(m[1]),
    slug: m[2] === undefined ? undefined : decodeURIComponent(m[2]),
  };
}

export const getPublicBriefTool = defineTool({
  name: "get_public_brief",
  siteText: ["brief"],
  title: "Get a public brief",
  description: "One public brief (summary, findings, numbered sources) by URL, or company_slug and slug.",
  input: {
    url: z.string().min(1).max(2048).optional().describe("As search_public_briefs gives it."),
    company_slug: slugArg("e.g. globex."),
    slug: slugArg("With company_slug."),
  },
  output: {
    brief: z.object({
      company,
      slug: z.string(),
      title: z.string(),
      summary: z.string().optional(),
      published_at: isoTime,
      url: z.string(),
      findings: z.array(
        z.object({
          text: z.string(),
          category: z.string().optional(),
          date: z.string().optional().describe("ISO 8601 date or date-time the finding refers to."),
        }),
      ),
      sources: z.array(z.object({ number: z.number().int(), title: z.string().optional(), url: z.string() })),
    }),
  },
  annotations: READ_ONLY,
  access: "public",
  run: async ({ s, base }, a) => {
    let companySlug = a.company_slug;
    let slug = a.slug;
    if (a.url !== undefined) {
      if (companySlug !== undefined || slug !== undefined)
        throw new ToolError("invalid_argument", "Give either url, or company_slug (and slug), not both.");
      const parsed = parseBriefUrl(a.url, base);
      companySlug = parsed.company;
      slug = parsed.slug;
    }
    if (companySlug === undefined)
      throw new ToolError(
        "invalid_argument",
        slug === undefined
          ? "Give url, or company_slug (and optionally slug)."
          : "slug needs company_slug: brief slugs are unique per company.",
        { argument: "company_slug" },
      );
    const brief = await getPublicBrief(s.database, companySlug, slug, base);
    if (!brief)
      throw new ToolError(
        "not_found",
        slug === undefined
          ? `No public brief about a company with slug ${JSON.stringify(companySlug)}.`
          : `No public brief ${JSON.stringify(slug)} about ${JSON.stringify(companySlug)}.`,
      );
    return { brief };
  },
});

export const searchGuidesTool = defineTool({
  name: "search_guides",
  title: "Search guides",
  description: "The public guide library on competitive intelligence, best match first.",
  input: {
    query: textArg("e.g. battlecard objections."),
    limit: z.number().int().min(1).max(20).default(5),
  },
  output: {
    guides: z.array(
      z.object({
        slug: z.string(),
        title: z.string(),
        excerpt: z.string().optional(),
        published_at: isoTime,
        url: z.string(),
      }),
    ),
  },
  annotations: READ_ONLY,
  access: "public",
  run: async ({ s, base }, a) => ({ guides: await searchGuides(s.database, a.query, a.limit, base) }),
});

export const getFreeBriefLinkTool = defineTool({
  name: "get_free_brief_link",
  title: "Get free brief links",
  description: "Links to request a free brief, sign up or compare plans; sends nothing.",
  input: {},
  output: {
    free_brief_url: z.string().describe("Request a free competitive brief."),
    signup_url: z.string().describe("Create a workspace (the first week is a free trial)."),
    pricing_url: z.string().describe("Compare plans and their limits."),
  },
  annotations: READ_ONLY,
  access: "public",
  run: async ({ base }) => ({
    free_brief_url: publicLinks.freeBrief(base),
    signup_url: publicLinks.signup(base),
    pricing_url: publicLinks.pricing(base),
  }),
});

export const publicTools = [
  searchPublicBriefsTool,
  getPublicBriefTool,
  searchGuidesTool,
  getFreeBriefLinkTool,
];
