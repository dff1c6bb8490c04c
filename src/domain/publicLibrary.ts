// The public library's import kinds (docs/import.md): `public_brief` and `guide`. Like the other kinds, the
// same line twice records nothing and a changed line records an update under the same id.
import type { NewEvent } from "../../events/catalog.ts";
import { storedGuide, storedPublicBrief } from "../db/queries/libraryRecords.ts";
import { type ImportKind, registerImportKind } from "./imports.ts";
import { arr, InvalidInput, isObject, onlyKeys, parseTimestamp, str, ts } from "./validate.ts";
import type {
  GuideRecord,
  PublicBriefFinding,
  PublicBriefRecord,
  PublicBriefSource,
} from "./workspaceTypes.ts";

type Obj = Record<string, unknown>;

export const SLUG = /^[a-z0-9](?:[a-z0-9-]{0,118}[a-z0-9])?$/;

function slug(o: Obj, f: string): string {
  const v = str(o, f, { required: true })!;
  if (!SLUG.test(v)) throw new InvalidInput(`${f} must be lowercase letters, digits and hyphens`, f);
  return v;
}

/** A bare host name: `https://www.Acme.example/x` and `acme.example` both give `acme.example`. */
export function normalizeDomain(v: string): string | undefined {
  let s = v.trim().toLowerCase();
  if (!s) return undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//.test(s)) s = `https://${s}`;
  let host: string;
  try {
    host = new URL(s).hostname;
  } catch {
    return undefined;
  }
  host = host.replace(/^www\./, "");
  return /^[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(host) ? host : undefined;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** A finding's date: a calendar date stays as given, a date-time is normalized to UTC. */
function findingDate(o: Obj, i: number): string | undefined {
  const v = str(o, "date");
  if (v === undefined) return undefined;
  const t = parseTimestamp(v);
  if (t === null) throw new InvalidInput(`findings[${i}].date must be an ISO 8601 date`, "findings");
  return DATE.test(v) ? v : t;
}

export function parsePublicBrief(rec: Obj): { companySlug: string; slug: string; record: PublicBriefRecord } {
  onlyKeys(
    rec,
    [
      "kind",
      "company_slug",
      "company_name",
      "domain",
      "slug",
      "title",
      "summary",
      "findings",
      "sources",
      "published_at",
    ],
    "public_brief",
  );
  const companySlug = slug(rec, "company_slug");
  const briefSlug = slug(rec, "slug");
  const rawDomain = str(rec, "domain", { max: 253 });
  const domain = rawDomain === undefined ? undefined : normalizeDomain(rawDomain);
  if (rawDomain !== undefined && domain === undefined)
    throw new InvalidInput("domain must be a host name such as acme.example", "domain");
  const findings: PublicBriefFinding[] = (arr(rec, "findings") ?? []).map((f, i) => {
    if (!isObject(f)) throw new InvalidInput(`findings[${i}] must be an object`, "findings");
    onlyKeys(f, ["text", "category", "date"], `findings[${i}]`);
    const text = str(f, "text", { required: true, max: 4000 })!;
    const category = str(f, "category", { max: 100 });
    const date = findingDate(f, i);
    return { text, ...(category ? { category } : {}), ...(date ? { date } : {}) };
  });
  const sources: PublicBriefSource[] = (arr(rec, "sources") ?? []).map((x, i) => {
    if (!isObject(x)) throw new InvalidInput(`sources[${i}] must be an object`, "sources");
    onlyKeys(x, ["title", "url"], `sources[${i}]`);
    const url = str(x, "url", { required: true, max: 2048 })!;
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      throw new InvalidInput(`sources[${i}].url must be an absolute http(s) URL`, "sources");
    }
    if (u.protocol !== "http:" && u.protocol !== "https:")
      throw new InvalidInput(`sources[${i}].url must be an http(s) URL`, "sources");
    const title = str(x, "title", { max: 300 });
    return { ...(title ? { title } : {}), url: u.href };
  });
  const published = ts(rec, "published_at");
  if (!published) throw new InvalidInput("published_at is required", "published_at");
  const summary = str(rec, "summary", { max: 4000 });
  return {
    companySlug,
    slug: briefSlug,
    record: {
      company_name: str(rec, "company_name", { required: true, max: 200 })!,
      ...(domain ? { domain } : {}),
      title: str(rec, "title", { required: true, max: 300 })!,
      ...(summary ? { summary } : {}),
      findings,
      sources,
      published_at: published,
    },
  };
}

export function parseGuide(rec: Obj): { slug: string; record: GuideRecord } {
  onlyKeys(rec, ["kind", "slug", "title", "excerpt", "body_markdown", "published_at"], "guide");
  const published = ts(rec, "published_at");
  if (!published) throw new InvalidInput("published_at is required", "published_at");
  const excerpt = str(rec, "excerpt", { max: 1000 });
  return {
    slug: slug(rec, "slug"),
    record: {
      title: str(rec, "title", { required: true, max: 300 })!,
      ...(excerpt ? { excerpt } : {}),
      body_markdown: str(rec, "body_markdown", { required: true, max: 200_000 })!,
      published_at: published,
    },
  };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** A stored record of the public library under its id, as the importer compares it. */
export interface StoredRecord {
  id: number;
  record: unknown;
}

/** The same brief again records nothing; a new or changed one is recorded under `id` (the stored one's, or a
 * fresh one for a new brief). `held`: not served publicly until an operator publishes it (briefReview.ts). */
export function decidePublicBrief(
  brief: ReturnType<typeof parsePublicBrief>,
  stored: StoredRecord | undefined,
  id: number,
  held = false,
): NewEvent[] {
  if (stored && same(stored.record, brief.record)) return [];
  return [
    {
      type: "PublicBriefRecorded",
      orgId: null,
      streamType: "public_brief",
      streamId: String(id),
      data: {
        id,
        company_slug: brief.companySlug,
        slug: brief.slug,
        record: brief.record,
        ...(held ? { held: true } : {}),
      },
    },
  ];
}

export function decideGuide(
  guide: ReturnType<typeof parseGuide>,
  stored: StoredRecord | undefined,
  id: number,
): NewEvent[] {
  if (stored && same(stored.record, guide.record)) return [];
  return [
    {
      type: "GuideRecorded",
      orgId: null,
      streamType: "guide",
      streamId: String(id),
      data: { id, slug: guide.slug, record: guide.record },
    },
  ];
}

/** What a library line is decided on: the record stored under its slugs, and the id its events take. */
interface StoredUnder {
  stored: StoredRecord | undefined;
  id: number;
}

/** A `public_brief` line: parsed, the brief stored under its slugs loaded, decided. */
const publicBriefKind: ImportKind<ReturnType<typeof parsePublicBrief>, StoredUnder> = {
  parse: parsePublicBrief,
  load: async (w, brief) => {
    const stored = await storedPublicBrief<StoredRecord["record"]>(w.tx, brief.companySlug, brief.slug);
    return { stored, id: stored?.id ?? (await w.nextId()) };
  },
  decide: (st, brief) => decidePublicBrief(brief, st.stored, st.id),
};

/** A `guide` line: parsed, the guide stored under its slug loaded, decided. */
const guideKind: ImportKind<ReturnType<typeof parseGuide>, StoredUnder> = {
  parse: parseGuide,
  load: async (w, guide) => {
    const stored = await storedGuide<StoredRecord["record"]>(w.tx, guide.slug);
    return { stored, id: stored?.id ?? (await w.nextId()) };
  },
  decide: (st, guide) => decideGuide(guide, st.stored, st.id),
};

registerImportKind("public_brief", publicBriefKind);
registerImportKind("guide", guideKind);
