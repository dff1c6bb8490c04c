// OpenAPI details per route (summaries, responses). Filled out with the response schemas.
export const docs = {
  listCompetitors: { detail: { summary: "List tracked competitors" } },
  getCompetitor: { detail: { summary: "Get a competitor dossier" } },
  listSignals: { detail: { summary: "List open signals" } },
  getSignal: { detail: { summary: "Get a signal" } },
  listDigests: { detail: { summary: "List generated digests" } },
  getDigest: { detail: { summary: "Get a digest by slug or id" } },
  listBattlecards: { detail: { summary: "List generated battlecards" } },
  getBattlecard: { detail: { summary: "Get a battlecard by id or competitor id" } },
};
