// What a battlecard is composed from and what composing gives (engine/battlecards.ts composes; the domain
// decides the BattlecardGenerated event around it, domain/battlecardGeneration.ts).
import type { CompetitorRecord, EvidenceItem, SignalRecord } from "./records.ts";

type Obj = Record<string, unknown>;

export interface BattlecardSignal extends Pick<SignalRecord, "title" | "summary" | "category" | "type"> {
  id: number;
  severity?: string;
  first_seen_at?: string;
  evidence: EvidenceItem[];
  /** What the engine's signal is about (a plan, a feature, a partner) and the state before and after it. */
  subject?: string;
  value_before?: string | null;
  value_after?: string | null;
}

export interface BattlecardNote {
  id: number;
  body: string;
  created_at: string;
}

export interface OwnProfile {
  differentiators?: string[];
  value_propositions?: string[];
}

export interface BattlecardInput {
  competitorId: number;
  competitor: CompetitorRecord;
  signals: BattlecardSignal[];
  /** The newest team notes (at most NOTES_PAGE, oldest first), the ones the card shows. */
  notes: BattlecardNote[];
  /** How many battlecard notes the competitor has in all (default: notes.length). */
  notesTotal?: number;
  own?: OwnProfile;
  /** When the card is written (ISO): moves older than the period are not "recent". */
  now?: string;
  /** The person's sections the card holds (imported, curated or accepted by a member) and when that version
   * was written: the engine proposes only what is newer, and names the lines a newer fact contradicts. */
  team?: { sections: Obj; at?: string };
}

/** One line the engine wrote, and what it rests on. */
export interface CardLine {
  section: string;
  text: string;
  by: "rivals" | "team";
  signal_id?: number;
  dossier_field?: string;
  /** The workspace's own profile field a line answers with (its differentiators). */
  profile_field?: string;
  source_url?: string;
  observed_at?: string;
  excerpt?: string;
  /** A person's lines this line makes out of date (dropped only when a member accepts). */
  replaces?: string[];
}

/** A person's line a newer fact contradicts. */
export interface OutdatedLine {
  section: string;
  text: string;
  because: string;
  signal_id?: number;
}

export interface ComposedBattlecard {
  sections: {
    /** Absent when the card keeps a person's overview. */
    overview?: string;
    strengths: string[];
    weaknesses: string[];
    talk_tracks: string[];
    landmines: string[];
    recent_moves: string[];
    team_framing: string[];
  };
  /** Every list line above with its trace. */
  lines: CardLine[];
  /** The person's lines (input.team) that newer facts contradict. */
  outdated: OutdatedLine[];
  evidence: Obj;
}

/** Composes a card (engine/battlecards.ts `composeBattlecard`, passed in by the caller). */
export type ComposeBattlecard = (input: BattlecardInput) => ComposedBattlecard;
