// A signal as the digests read it: the writer, its "what to watch" rules and the generator that loads them.
import type { Move } from "../../domain/materiality.ts";

export interface DigestSignal extends Move {
  competitor_id: number | null;
  competitor: string;
  title: string;
  summary?: string;
  category?: string;
  /** What the change is about, as the engine recorded it: the plan, feature, role, integration, round … */
  subject?: string;
  /** The value before and after, as the engine recorded it ("$59 per seat/month", "3" open roles). */
  before?: string;
  after?: string;
  /** The signal's page in the app, relative to the installation (`/app/signals/12`): the reader's base URL is
   * put in front when the digest is read. */
  url: string;
  /** The first evidence item's source page. */
  source_url?: string;
}
