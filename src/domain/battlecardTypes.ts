// What a battlecard is composed from and what composing gives (engine/battlecards.ts composes; the domain
// decides the BattlecardGenerated event around it, domain/battlecardGeneration.ts).
import type { CompetitorRecord, EvidenceItem, SignalRecord } from "./records.ts";

type Obj = Record<string, unknown>;

export interface BattlecardSignal extends Pick<SignalRecord, "title" | "summary" | "category" | "type"> {
  id: number;
  severity?: string;
  first_seen_at?: string;
  evidence: EvidenceItem[];
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
}

export interface ComposedBattlecard {
  sections: {
    overview: string;
    strengths: string[];
    weaknesses: string[];
    talk_tracks: string[];
    landmines: string[];
    recent_moves: string[];
    team_framing: string[];
  };
  evidence: Obj;
}

/** Composes a card (engine/battlecards.ts `composeBattlecard`, passed in by the caller). */
export type ComposeBattlecard = (input: BattlecardInput) => ComposedBattlecard;
