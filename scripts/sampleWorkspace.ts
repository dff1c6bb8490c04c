// A sample workspace as import records (docs/import.md): researched competitors with every read the pages show,
// signals over them, a battlecard with two versions. Invented companies on .example domains; used by the pages
// benchmark (bench/pages.ts) and by `npm run screenshots`.
const CATEGORIES = [
  ["pricing", "price_change"],
  ["hiring", "hiring_surge"],
  ["product", "release"],
  ["positioning", "messaging_change"],
  ["company", "funding"],
] as const;
const INTEGRATIONS = Array.from({ length: 40 }, (_, i) => `Integration ${i + 1}`);

/** The records of one workspace (`bench`), in import order. */
export function* sampleWorkspace(size: { competitors: number; signals: number }): Generator<object> {
  const COMPETITORS = size.competitors;
  const SIGNALS = size.signals;
  yield {
    kind: "org",
    slug: "bench",
    name: "Bench Analytics",
    plan: "growth",
    website_url: "https://bench.example",
  };
  for (let c = 0; c < COMPETITORS; c++) {
    const site = `https://rival${c}.example`;
    yield {
      kind: "competitor",
      org: "bench",
      key: `c${c}`,
      name: `Rival ${c}`,
      category: "Product analytics",
      website_url: site,
      watch: "core",
      tracking: "active",
      workspace: {
        relative_risk: ["low", "medium", "high"][c % 3],
        relative_opportunity: ["high", "medium", "low"][c % 3],
      },
      reads: {
        positioning: `Rival ${c} helps teams see what matters`,
        pricing: {
          plans: [
            { name: "Free", price: 0, currency: "USD" },
            {
              name: "Team",
              price: 10 + c,
              currency: "USD",
              period: "month",
              unit: "seat",
              features: ["Dashboards", "Alerts"],
            },
            {
              name: "Business",
              price: 50 + c,
              currency: "USD",
              period: "month",
              unit: "seat",
              features: ["SSO", "Audit log"],
            },
            { name: "Enterprise", custom: true, features: ["SLA"] },
          ],
          free_tier: true,
          has_enterprise: true,
          page: `${site}/pricing`,
        },
        hiring: {
          open_roles: 5 + (c % 20),
          by_department: { Engineering: 3 + (c % 10), Sales: 1 + (c % 5), Marketing: 1 },
          locations: ["Berlin", "Remote"],
          source: `${site}/careers`,
        },
        integrations: { names: INTEGRATIONS, count: INTEGRATIONS.length, page: `${site}/integrations` },
        tech_stack: {
          technologies: [
            { name: "Stripe", category: "payments", page: `${site}/pricing` },
            { name: "Segment", category: "analytics", page: site },
            { name: "Intercom", category: "support", page: site },
          ],
        },
        release_cadence: {
          releases_last_90_days: c % 12,
          median_days_between: 7,
          last_release_at: "2026-11-10T00:00:00Z",
          source: `${site}/changelog`,
        },
      },
    };
  }
  const start = Date.parse("2026-05-24T00:00:00Z");
  for (let i = 0; i < SIGNALS; i++) {
    const [category, type] = CATEGORIES[i % CATEGORIES.length];
    yield {
      kind: "signal",
      org: "bench",
      key: `s${i}`,
      competitor: `c${i % COMPETITORS}`,
      title: `Rival ${i % COMPETITORS} ${type.replaceAll("_", " ")} number ${i}`,
      summary: `What changed in signal ${i}, with enough words to look like a real summary of a change.`,
      category,
      type,
      severity: ["low", "medium", "high"][i % 3],
      status: i % 5 === 0 ? "closed" : "open",
      first_seen_at: new Date(start + Math.floor((i / SIGNALS) * 180 * 86_400_000)).toISOString(),
      evidence: [{ text: `Excerpt ${i}`, source_url: `https://rival${i % COMPETITORS}.example/page/${i}` }],
    };
  }
  for (const [v, at] of [
    [1, "2026-11-01T09:00:00Z"],
    [2, "2026-11-18T09:00:00Z"],
  ] as const)
    yield {
      kind: "battlecard",
      org: "bench",
      key: "bc0",
      competitor: "c0",
      status: "generated",
      generated_at: at,
      sections: {
        overview: "Rival 0 sells analytics to product teams.",
        strengths: ["Free tier", `${30 + v * 10} integrations`],
        weaknesses: ["No SSO below Business"],
        talk_tracks: ["Lead with onboarding time"],
      },
      evidence: { sources: [{ title: "Rival 0 pricing", url: "https://rival0.example/pricing" }] },
    };
}
