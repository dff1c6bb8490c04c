// A signal as the digests read it: the writer, its "what to watch" rules and the generator that loads them.

export interface DigestSignal {
  id: number;
  competitor_id: number | null;
  competitor: string;
  title: string;
  summary?: string;
  severity?: string;
  category?: string;
  type?: string;
  confidence?: number;
  first_seen_at: string;
  /** The signal's page in the app. */
  url: string;
  /** The first evidence item's source page. */
  source_url?: string;
}
