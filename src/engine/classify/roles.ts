// Which job titles are leadership roles, and how senior: the one vocabulary the hiring rule (an opening), the
// people rule (a name on a leadership page) and the announcement rule (an appointment) all read.
//
// Levels: `c_level` (CEO…, Chief … Officer, President, founders), `executive` (VP family, General Manager,
// Chief of Staff, other Chief titles) and `leadership` (Head of …, Director, General Counsel). A support role
// that names an executive ("Executive Assistant to the CEO", "Chief of Staff to the CTO") is no role at all.

export type RoleLevel = "c_level" | "executive" | "leadership";

export interface Role {
  /** The words that named the role, as written. */
  matched: string;
  /** Those words in title case with acronyms upper-cased: "VP Of Sales", "Chief Revenue Officer". */
  name: string;
  level: RoleLevel;
}

// Alternatives at the same start are tried in order: longer forms first ("vice president" before "president"
// only matters by position; "chief … officer" before "chief of staff" before a bare "chief …").
const C_LEVEL =
  "ceo|cto|cfo|coo|cmo|cro|cpo|ciso|cio|cdo|chro|chief [a-z]+(?: [a-z]+)? officer|president|co-?founder|founder";
const EXECUTIVE =
  "chief of staff|chief [a-z]+|vice[ -]president|svp|evp|avp|vp of [a-z]+(?: [a-z]+)?|vp|general manager";
const LEADERSHIP = "head of [a-z]+(?: [a-z]+)?|managing director|director|general counsel";

/** Source of the role alternation (one capture group), for rules that look for a role in a phrase. */
export const ROLE_WORDS = `(${C_LEVEL}|${EXECUTIVE}|${LEADERSHIP})`;
const ROLE = new RegExp(`\\b${ROLE_WORDS}\\b`, "i");
const IS_C_LEVEL = new RegExp(`^(?:${C_LEVEL})$`, "i");
const IS_EXECUTIVE = new RegExp(`^(?:${EXECUTIVE})$`, "i");

// "Executive Assistant …" anywhere, or a support title followed by "to" and a role.
const SUPPORT = new RegExp(
  `\\bexecutive\\s+assistant\\b|\\b(?:assistant|associate|coordinator|intern|chief\\s+of\\s+staff)\\b[^,]*\\bto\\b[^,]*\\b${ROLE_WORDS}\\b`,
  "i",
);
const ACRONYM = /\b(Ceo|Cto|Cfo|Coo|Cmo|Cro|Cpo|Ciso|Cio|Cdo|Chro|Vp|Svp|Evp|Avp)\b/g;

const SPACES = /\s+/g;
const WORD_START = /\b\w/g;
function levelOf(words: string): RoleLevel {
  const w = words.replace(SPACES, " ");
  if (IS_C_LEVEL.test(w)) return "c_level";
  if (IS_EXECUTIVE.test(w)) return "executive";
  return "leadership";
}

/** Title case with acronyms upper-cased. */
export function roleName(words: string): string {
  return words.replace(WORD_START, (c) => c.toUpperCase()).replace(ACRONYM, (x) => x.toUpperCase());
}

/** The first leadership role a text names, or undefined (none, or a support role). */
export function findRole(text: string): Role | undefined {
  if (typeof text !== "string" || SUPPORT.test(text)) return undefined;
  const m = ROLE.exec(text);
  if (!m) return undefined;
  return { matched: m[1], name: roleName(m[1]), level: levelOf(m[1]) };
}
