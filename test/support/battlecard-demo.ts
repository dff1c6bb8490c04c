// The demo workspace after one advance of its sites, as a battlecard reads it: the three core competitors' records
// (examples/demo.ndjson), their open signals (the imported history and what the engine found on the fixture web),
// and the curated cards the demo imports. Plain data for the composer and the deciders, no database.
import type { BattlecardSignal } from "../../src/domain/battlecardTypes.ts";
import type { CompetitorRecord } from "../../src/domain/records.ts";

export const DEMO = {
  globex: {
    competitor: {
      name: "Globex Insights",
      website_url: "https://globex.example",
      category: "Product analytics",
      watch: "core",
      tracking: "active",
      priority: 1,
      tracked_since: "2026-03-02T09:00:00Z",
      description: "Self-serve product analytics for mid-market SaaS teams.",
      industry: "Software",
      company_type: "Private company",
      business_model: "Per-seat SaaS subscription",
      company_size: 420,
      founding_year: 2016,
      headquarters: { city: "Austin", country: "United States" },
      target_customer: "Product managers and growth teams at SaaS companies with 50\u20131,000 employees",
      ownership: { type: "Venture-backed", public: false },
      urls: {
        pricing: "https://globex.example/pricing",
        docs: "https://docs.globex.example/",
        changelog: "https://globex.example/changelog",
        careers: "https://globex.example/careers",
        linkedin: "https://www.linkedin.example/company/globex-insights",
        github: "https://github.example/globex-insights",
        x: "https://x.example/globexinsights",
      },
      workspace: {
        relative_risk: "high",
        relative_opportunity: "medium",
        icp_overlap: {
          industries: ["SaaS", "Fintech"],
          buyer_roles: ["Head of Product", "Growth lead"],
          score_label: "strong overlap",
        },
      },
      reads: {
        positioning: "The fastest way for product teams to answer questions without SQL.",
        product: {
          summary:
            "Event analytics with funnels, retention and cohort charts; a natural-language question box shipped in 2026.",
          flagship: "Globex Ask",
          recent_launches: ["Globex Ask (AI questions)", "Warehouse sync for Snowflake"],
        },
        pricing: {
          model: "Per seat, billed monthly or annually",
          entry_price_text: "Team plan from $59 per seat per month",
          free_tier: true,
          discounting: "20% off on annual contracts",
          plans: [
            { name: "Free", price_text: "$0, up to 3 seats" },
            { name: "Team", price_text: "$59 per seat / month" },
            { name: "Enterprise", price_text: "Custom" },
          ],
        },
        ai: {
          summary: "Natural-language questions over event data; answers cite the chart they come from.",
          maturity: "General availability since October 2026",
        },
        traffic: { trend: "up", note: "Docs traffic grew after the Ask launch." },
        market: { segment: "Mid-market SaaS", geographies: ["North America", "Western Europe"] },
        tech_stack: { notable: ["ClickHouse", "Kafka", "React"] },
        integrations: {
          count_text: "About 60 integrations",
          highlights: ["Segment", "HubSpot", "Snowflake", "Slack"],
        },
        release_cadence: { summary: "Weekly changelog entries; a larger launch each quarter." },
        hiring: {
          estimated_headcount: 420,
          open_roles: 38,
          focus: ["Enterprise sales (EMEA)", "ML engineering"],
          trend: "growing",
        },
        funding: {
          estimated_revenue_text: "$45\u201360M ARR (estimate)",
          ownership_summary: "Venture-backed; Series C led by Harbor Peak Ventures",
          last_round_text: "Series C, $70M, 2025",
        },
        fortnight: {
          written_at: "2026-11-16T07:00:00Z",
          sentences: [
            {
              kind: "pricing",
              text: "Globex raised its Team plan from $49 to $59 per seat and moved SSO to Enterprise.",
            },
            {
              kind: "product",
              text: "Globex Ask reached general availability and now sits on every dashboard.",
            },
            { kind: "hiring", text: "Eleven new enterprise sales roles opened in London and Berlin." },
          ],
        },
      },
      freshness: {
        state_updated_at: "2026-11-19T06:00:00Z",
        last_signal_at: "2026-11-18T08:12:00Z",
        last_snapshot_at: "2026-11-19T05:40:00Z",
      },
      internal: {
        brand_asset_ids: ["ba_5512", "ba_5513"],
        discovery_source: "onboarding_suggestion",
        feature_aliases: { Ask: ["Globex AI", "Question box"] },
        pricing_snapshot_ids: [88121, 88455],
        funding_source_counts: { press: 3, filings: 1 },
        comparison_scores: { overall: 0.82 },
        team_notes: "Lost two deals to Globex in Q3 on price.",
      },
    } as CompetitorRecord,
    signals: [
      {
        id: 1195,
        title: "Globex Insights announces partnership with Snowflake",
        summary:
          'Globex Insights published "Globex partners with Snowflake to bring warehouse-native analytics to every team" on its blog page (https://globex.example/blog). A strategic partnership: Globex Ask now answers questions on Snowflake data in place, with joint support. \u00b7 \u27e8date\u27e9 \u00b7 Maya Chen',
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "partnership",
        category: "company",
        subject: "Snowflake",
        value_before: null,
        value_after: null,
        evidence: [
          {
            source_url: "https://globex.example/blog",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Globex Insights announces partnership with Snowflake",
          },
        ],
      },
      {
        id: 1194,
        title: "Globex Insights moves Warehouse sync (Snowflake, BigQuery) from Team plan to Enterprise plan",
        summary:
          "Globex Insights's Team plan no longer includes Warehouse sync (Snowflake, BigQuery); it is part of the Enterprise plan (https://globex.example/pricing).",
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "packaging_change",
        category: "pricing",
        subject: "Warehouse sync (Snowflake, BigQuery)",
        value_before: null,
        value_after: null,
        evidence: [
          {
            source_url: "https://globex.example/pricing",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Globex Insights moves Warehouse sync (Snowflake, BigQuery) from Team plan to Enterprise plan",
          },
        ],
      },
      {
        id: 1193,
        title: "Globex Insights raises Team plan price from $59 to $69 per seat/month (+17%)",
        summary:
          "Globex Insights raised the price of its Team plan from $59 per seat/month to $69 per seat/month, +17% (https://globex.example/pricing).",
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "price_increase",
        category: "pricing",
        subject: "Team",
        value_before: "$59 per seat/month",
        value_after: "$69 per seat/month",
        evidence: [
          {
            source_url: "https://globex.example/pricing",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Globex Insights raises Team plan price from $59 to $69 per seat/month (+17%)",
          },
        ],
      },
      {
        id: 1024,
        title: "Globex moves SSO to the Enterprise plan",
        summary:
          "SAML single sign-on is no longer listed on the Team plan; it now appears only under Enterprise.",
        severity: "high",
        first_seen_at: "2026-11-18T08:15:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-18T08:15:00.000Z",
            text: "SAML single sign-on is no longer listed on the Team plan; it now appears only under Enterprise.",
          },
        ],
      },
      {
        id: 1023,
        title: "Globex raises Team plan price by 20%",
        summary: "The Team plan moved from $49 to $59 per seat per month; annual discount unchanged.",
        severity: "high",
        first_seen_at: "2026-11-18T08:12:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-18T08:12:00.000Z",
            text: "The Team plan moved from $49 to $59 per seat per month; annual discount unchanged.",
          },
        ],
      },
      {
        id: 1027,
        title: "Globex opens 11 enterprise sales roles in London and Berlin",
        summary: "New account executive and solutions engineer roles point to an enterprise push in EMEA.",
        severity: "medium",
        first_seen_at: "2026-11-12T07:30:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-12T07:30:00.000Z",
            text: "New account executive and solutions engineer roles point to an enterprise push in EMEA.",
          },
        ],
      },
      {
        id: 1025,
        title: "Globex Ask reaches general availability",
        summary: "The natural-language question box left beta and is enabled on every plan, including Free.",
        severity: "high",
        first_seen_at: "2026-11-04T15:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-04T15:00:00.000Z",
            text: "The natural-language question box left beta and is enabled on every plan, including Free.",
          },
        ],
      },
      {
        id: 1050,
        title: "Globex launches a partner program for agencies",
        summary: "Agencies get revenue share and a sandbox workspace; the program targets the mid-market.",
        severity: "low",
        first_seen_at: "2026-10-29T12:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-29T12:00:00.000Z",
            text: "Agencies get revenue share and a sandbox workspace; the program targets the mid-market.",
          },
        ],
      },
      {
        id: 1028,
        title: "Globex launches two-way Snowflake sync",
        summary:
          "Event data can now be exported to and read back from Snowflake, narrowing the gap with warehouse-native tools.",
        severity: "medium",
        first_seen_at: "2026-10-21T13:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-21T13:00:00.000Z",
            text: "Event data can now be exported to and read back from Snowflake, narrowing the gap with warehouse-native tools.",
          },
        ],
      },
      {
        id: 1029,
        title: "Globex hires a CFO with IPO experience",
        summary: "The new CFO previously led finance through a public listing at a developer-tools company.",
        severity: "low",
        first_seen_at: "2026-10-14T09:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-14T09:00:00.000Z",
            text: "The new CFO previously led finance through a public listing at a developer-tools company.",
          },
        ],
      },
    ] as BattlecardSignal[],
    card: {
      status: "generated",
      generated_at: "2026-11-19T07:00:00Z",
      sections: {
        overview:
          "Globex Insights is the incumbent self-serve product analytics tool in mid-market SaaS. It leads with ease of use and, since November, an AI question box on every plan. It just raised prices and moved SSO to Enterprise.",
        strengths: [
          "Polished, fast UI that product managers adopt without training",
          "Globex Ask (AI questions) is generally available on every plan",
          "Large integration catalogue (about 60), including Segment and HubSpot",
          "Strong brand in North America",
        ],
        weaknesses: [
          "Team plan now $59 per seat, 20% more than in October",
          "SSO is Enterprise-only, forcing mid-size teams into custom contracts",
          "Separate event store: data teams must sync to the warehouse",
          "US ingestion incident on 9 Nov delayed dashboards for four hours",
        ],
        talk_tracks: [
          '"If SSO is a requirement, ask Globex for the Enterprise quote before comparing seat prices \u2014 we include SSO on Growth."',
          '"Ask lives inside Globex\'s event store; our answers run on the same data your warehouse already trusts."',
          '"Price per seat grows with every PM you add; our pricing follows tracked users, not headcount."',
        ],
      },
      evidence: {
        sources: [
          {
            title: "Globex pricing",
            url: "https://globex.example/pricing",
            observed_at: "2026-11-18T08:12:00Z",
          },
          {
            title: "Introducing Globex Ask",
            url: "https://globex.example/blog/globex-ask-ga",
            observed_at: "2026-11-04T15:00:00Z",
          },
          {
            title: "Globex status \u2014 9 Nov incident",
            url: "https://status.globex.example/incidents/2026-11-09",
            observed_at: "2026-11-09T18:20:00Z",
          },
        ],
        signals: ["globex-pricing-2026-11", "globex-sso-enterprise", "globex-ask-ga", "globex-outage"],
      },
    },
  },
  brightloop: {
    competitor: {
      name: "Brightloop",
      website_url: "https://brightloop.example",
      category: "Session replay and product analytics",
      watch: "core",
      tracking: "active",
      priority: 2,
      tracked_since: "2026-03-02T09:05:00Z",
      description:
        "Session replay, heatmaps and lightweight product analytics sold bottom-up to product and UX teams.",
      industry: "Software",
      company_type: "Private company",
      business_model: "Freemium, usage-based (sessions per month)",
      company_size: 180,
      founding_year: 2019,
      headquarters: { city: "Lisbon", country: "Portugal" },
      target_customer: "UX researchers and product designers at startups and scale-ups",
      ownership: { type: "Venture-backed", public: false },
      urls: {
        pricing: "https://brightloop.example/pricing",
        docs: "https://help.brightloop.example/",
        changelog: "https://brightloop.example/changelog",
        careers: "https://brightloop.example/jobs",
        linkedin: "https://www.linkedin.example/company/brightloop",
        youtube: "https://video.example/@brightloop",
      },
      workspace: {
        relative_risk: "medium",
        relative_opportunity: "high",
        icp_overlap: {
          industries: ["SaaS", "E-commerce"],
          buyer_roles: ["Product designer", "Head of Product"],
          score_label: "partial overlap",
        },
      },
      reads: {
        positioning: "See exactly what your users see \u2014 replay, heatmaps and funnels in one place.",
        product: {
          summary: "Session replay with privacy masking, click and scroll heatmaps, basic funnels.",
          recent_launches: ["Funnels 2.0", "Mobile SDK for iOS"],
        },
        pricing: {
          model: "Usage-based by recorded sessions",
          entry_price_text: "Starter from $39 per month for 10,000 sessions",
          free_tier: true,
        },
        ai: { summary: "AI session summaries in beta; flags rage clicks and dead ends." },
        market: { segment: "Startups and scale-ups", geographies: ["Europe", "North America"] },
        integrations: { highlights: ["Shopify", "Intercom", "Jira"] },
        hiring: { estimated_headcount: 180, open_roles: 12, focus: ["Mobile engineering", "Partnerships"] },
        funding: {
          estimated_revenue_text: "$12\u201318M ARR (estimate)",
          ownership_summary: "Venture-backed; Series B in 2026",
          last_round_text: "Series B, $32M, October 2026",
        },
        fortnight: {
          written_at: "2026-11-16T07:00:00Z",
          sentences: [
            {
              kind: "funding",
              text: "Brightloop closed a $32M Series B and says it will expand in North America.",
            },
            { kind: "product", text: "Funnels 2.0 moves Brightloop closer to core product analytics." },
          ],
        },
      },
      freshness: {
        state_updated_at: "2026-11-18T06:00:00Z",
        last_signal_at: "2026-11-17T14:30:00Z",
        last_snapshot_at: "2026-11-18T05:50:00Z",
      },
      internal: {
        discovery_source: "manual",
        comparison_scores: { overall: 0.64 },
        team_notes: "Often shows up alongside us in design-led evaluations.",
      },
    } as CompetitorRecord,
    signals: [
      {
        id: 1214,
        title: "Brightloop lists SOC 2 certification",
        summary:
          'Brightloop\'s security page now names SOC 2: "SOC 2 Type II audited (report under NDA)" (https://brightloop.example/security/).',
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "certification",
        category: "legal_security",
        subject: "SOC 2",
        value_before: null,
        value_after: null,
        evidence: [
          {
            source_url: "https://brightloop.example/security/",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Brightloop lists SOC 2 certification",
          },
        ],
      },
      {
        id: 1213,
        title: "Brightloop announces partnership with Fivetran",
        summary:
          'Brightloop published "Brightloop & Fivetran Partner to Bring Session Insights to Every Data Warehouse" on its press page (https://brightloop.example/newsroom/). \u27e8date\u27e9 LISBON, Portugal--(BUSINESS WIRE)--Brightloop, the privacy-first session replay platform, \u27e8ago\u27e9 announced a strategic partnership with Fivetran that sends Brightloop\'s session, heatmap and funnel data to any data warehouse Fivetran supports, with no code. "Our customers asked to join what us\u2026',
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "partnership",
        category: "company",
        subject: "Fivetran",
        value_before: null,
        value_after: null,
        evidence: [
          {
            source_url: "https://brightloop.example/newsroom/",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Brightloop announces partnership with Fivetran",
          },
        ],
      },
      {
        id: 1212,
        title:
          'Brightloop changes its home page headline to "Fix the bugs that cost you revenue, before customers notice"',
        summary:
          'Brightloop\'s home page now leads with "Fix the bugs that cost you revenue, before customers notice \u2014 Session replay, heatmaps and funnels in one privacy-first\u2026" instead of "See exactly where users struggle \u2014 Session replay, heatmaps and funnels in one privacy-first tool for web and mobile ap\u2026" (https://brightloop.example/).',
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "messaging_change",
        category: "marketing",
        subject: "headline",
        value_before:
          "See exactly where users struggle \u2014 Session replay, heatmaps and funnels in one privacy-first tool for web and mobile apps.",
        value_after:
          "Fix the bugs that cost you revenue, before customers notice \u2014 Session replay, heatmaps and funnels in one privacy-first tool for web and mobile apps.",
        evidence: [
          {
            source_url: "https://brightloop.example/",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: 'Brightloop changes its home page headline to "Fix the bugs that cost you revenue, before customers notice"',
          },
        ],
      },
      {
        id: 1211,
        title: "Brightloop ends its free Free plan",
        summary:
          "Brightloop no longer lists its free Free plan \u2014 Data retention: 30 days, Heatmaps, Recorded sessions per month: 1,000, Session replay, Support: Community (https://brightloop.example/pricing/).",
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "free_tier_change",
        category: "pricing",
        subject: "Free",
        value_before: "listed",
        value_after: null,
        evidence: [
          {
            source_url: "https://brightloop.example/pricing/",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Brightloop ends its free Free plan",
          },
        ],
      },
      {
        id: 1210,
        title: "Brightloop cuts Growth plan price from $119 to $99/month (-17%)",
        summary:
          "Brightloop lowered the price of its Growth plan from $119/month to $99/month, -17% (https://brightloop.example/pricing/).",
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "price_decrease",
        category: "pricing",
        subject: "Growth",
        value_before: "$119/month",
        value_after: "$99/month",
        evidence: [
          {
            source_url: "https://brightloop.example/pricing/",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Brightloop cuts Growth plan price from $119 to $99/month (-17%)",
          },
        ],
      },
      {
        id: 1209,
        title: "Brightloop raises funding: Series B $40 million",
        summary:
          'Brightloop published "Brightloop raises $40 million Series B to bring privacy-first replay to every team" on its blog page (https://brightloop.example/blog/). The round is led by Northzone, with Atomico and our seed investors joining. \u00b7 \u27e8date\u27e9',
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "funding",
        category: "company",
        subject: "Series B $40 million",
        value_before: null,
        value_after: null,
        evidence: [
          {
            source_url: "https://brightloop.example/blog/",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Brightloop raises funding: Series B $40 million",
          },
        ],
      },
      {
        id: 1036,
        title: 'Brightloop homepage now says "product analytics" first',
        summary:
          "The hero line changed from session replay to product analytics, signalling a repositioning.",
        severity: "medium",
        first_seen_at: "2026-11-19T07:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-19T07:00:00.000Z",
            text: "The hero line changed from session replay to product analytics, signalling a repositioning.",
          },
        ],
      },
      {
        id: 1032,
        title: "Brightloop ships Funnels 2.0 with conversion breakdowns",
        summary:
          "Funnels now support breakdowns by property and cohort, a direct move into core product analytics.",
        severity: "high",
        first_seen_at: "2026-11-17T14:30:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-17T14:30:00.000Z",
            text: "Funnels now support breakdowns by property and cohort, a direct move into core product analytics.",
          },
        ],
      },
      {
        id: 1051,
        title: "Brightloop discloses a masking bug that recorded some form inputs",
        summary:
          "A bug in the replay SDK recorded unmasked text fields for some customers for six days; fixed and disclosed.",
        severity: "high",
        first_seen_at: "2026-11-15T19:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-15T19:00:00.000Z",
            text: "A bug in the replay SDK recorded unmasked text fields for some customers for six days; fixed and disclosed.",
          },
        ],
      },
      {
        id: 1034,
        title: "Brightloop adds a Growth tier between Starter and Business",
        summary: "The new Growth tier costs $149 per month for 50,000 sessions and includes funnels.",
        severity: "medium",
        first_seen_at: "2026-11-10T09:45:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-10T09:45:00.000Z",
            text: "The new Growth tier costs $149 per month for 50,000 sessions and includes funnels.",
          },
        ],
      },
      {
        id: 1033,
        title: "Brightloop releases an iOS SDK for session replay",
        summary: "Mobile replay for iOS is in public beta; Android is listed as coming soon.",
        severity: "medium",
        first_seen_at: "2026-11-03T11:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-03T11:00:00.000Z",
            text: "Mobile replay for iOS is in public beta; Android is listed as coming soon.",
          },
        ],
      },
      {
        id: 1031,
        title: "Brightloop raises a $32M Series B",
        summary:
          "The round is led by Northgate Capital; Brightloop says it will open a New York office and grow its sales team.",
        severity: "high",
        first_seen_at: "2026-10-28T06:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-28T06:00:00.000Z",
            text: "The round is led by Northgate Capital; Brightloop says it will open a New York office and grow its sales team.",
          },
        ],
      },
      {
        id: 1035,
        title: "Brightloop becomes a Shopify Plus certified app",
        summary: "The certification adds Brightloop to the partner directory for Shopify Plus merchants.",
        severity: "low",
        first_seen_at: "2026-10-16T12:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-16T12:00:00.000Z",
            text: "The certification adds Brightloop to the partner directory for Shopify Plus merchants.",
          },
        ],
      },
    ] as BattlecardSignal[],
    card: {
      status: "generated",
      generated_at: "2026-11-18T07:00:00Z",
      sections: {
        overview:
          "Brightloop started as session replay and heatmaps and is moving into product analytics (Funnels 2.0, a Growth tier with funnels, a new homepage). Fresh Series B money funds a North American push.",
        strengths: [
          "Session replay and heatmaps that designers love",
          "Low entry price and generous free tier",
          "Fast shipping cadence; iOS replay SDK in beta",
        ],
        weaknesses: [
          "Funnels are new and lack retention and cohort depth",
          "Disclosed a masking bug that recorded some unmasked inputs (15 Nov)",
          "Usage pricing by sessions becomes expensive at scale",
        ],
        talk_tracks: [
          '"Use Brightloop to see one session; use us to know which of a million sessions matter."',
          '"Ask how Brightloop handles masking after the 15 November incident \u2014 privacy reviews take weeks."',
          '"Model the session-based bill at 10\u00d7 today\'s traffic before signing."',
        ],
      },
      evidence: {
        sources: [
          {
            title: "Brightloop blog \u2014 Series B",
            url: "https://brightloop.example/blog/series-b",
            observed_at: "2026-10-28T06:00:00Z",
          },
          {
            title: "Brightloop changelog \u2014 Funnels 2.0",
            url: "https://brightloop.example/changelog#funnels-2",
            observed_at: "2026-11-17T14:30:00Z",
          },
          {
            title: "Brightloop trust \u2014 incident report",
            url: "https://brightloop.example/trust/incidents/2026-11-15",
            observed_at: "2026-11-15T19:00:00Z",
          },
        ],
      },
    },
  },
  quantive: {
    competitor: {
      name: "Quantive Labs",
      website_url: "https://quantive.example",
      category: "Warehouse-native analytics",
      watch: "core",
      tracking: "active",
      priority: 3,
      tracked_since: "2026-04-14T10:00:00Z",
      description:
        "Product analytics that runs directly on the customer's data warehouse, with no separate event store.",
      industry: "Software",
      company_type: "Private company",
      business_model: "Annual contracts priced by warehouse compute tier",
      company_size: 95,
      founding_year: 2021,
      headquarters: { city: "Toronto", country: "Canada" },
      target_customer:
        "Data teams at companies that already centralise events in Snowflake, BigQuery or Databricks",
      ownership: { type: "Venture-backed", public: false },
      urls: {
        pricing: "https://quantive.example/pricing",
        docs: "https://docs.quantive.example/",
        changelog: "https://docs.quantive.example/changelog",
        github: "https://github.example/quantive-labs",
        linkedin: "https://www.linkedin.example/company/quantive-labs",
      },
      workspace: {
        relative_risk: "medium",
        relative_opportunity: "medium",
        icp_overlap: {
          industries: ["Fintech", "Marketplaces"],
          buyer_roles: ["Head of Data", "Analytics engineer"],
        },
      },
      reads: {
        positioning: "Your warehouse is your analytics tool \u2014 no copies, no second source of truth.",
        product: {
          summary:
            "Funnels, retention and experiment analysis compiled to SQL against the customer's warehouse.",
          recent_launches: ["Databricks support", "Experiment readouts"],
        },
        pricing: {
          model: "Annual contract by compute tier",
          entry_price_text: "From $24,000 per year",
          free_tier: false,
        },
        tech_stack: { notable: ["dbt", "Snowflake", "BigQuery", "Databricks"] },
        integrations: { highlights: ["dbt Cloud", "Snowflake", "BigQuery", "Databricks"] },
        release_cadence: { summary: "Monthly releases with public changelog." },
        hiring: { estimated_headcount: 95, open_roles: 9, focus: ["Solutions engineering"] },
        funding: {
          estimated_revenue_text: "$6\u20139M ARR (estimate)",
          ownership_summary: "Venture-backed; Series A",
        },
      },
      freshness: { state_updated_at: "2026-11-17T06:00:00Z", last_signal_at: "2026-11-12T11:00:00Z" },
      internal: { discovery_source: "competitor_mentions", pricing_snapshot_ids: [77410] },
    } as CompetitorRecord,
    signals: [
      {
        id: 1229,
        title: "Quantive Labs removes Amazon Redshift integration",
        summary:
          "Quantive Labs no longer lists Amazon Redshift among its integrations (https://quantive.example/integrations).",
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "integration_removed",
        category: "product",
        subject: "Amazon Redshift",
        value_before: "listed",
        value_after: null,
        evidence: [
          {
            source_url: "https://quantive.example/integrations",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Quantive Labs removes Amazon Redshift integration",
          },
        ],
      },
      {
        id: 1228,
        title: "Quantive Labs adds Microsoft Power BI integration",
        summary:
          "Quantive Labs now lists Microsoft Power BI among its integrations (https://quantive.example/integrations).",
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "integration_added",
        category: "product",
        subject: "Microsoft Power BI",
        value_before: null,
        value_after: "listed",
        evidence: [
          {
            source_url: "https://quantive.example/integrations",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Quantive Labs adds Microsoft Power BI integration",
          },
        ],
      },
      {
        id: 1227,
        title: 'Quantive Labs adds a new page to its site: "Customers" (/customers)',
        summary: 'Quantive Labs\'s navigation now links "Customers" at https://quantive.example/customers.',
        severity: "medium",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "page_added",
        category: "marketing",
        subject: "Customers",
        value_before: null,
        value_after: "linked",
        evidence: [
          {
            observed_at: "2026-11-21T12:00:00.000Z",
            text: 'Quantive Labs\'s navigation now links "Customers" at https://quantive.example/customers.',
          },
        ],
      },
      {
        id: 1226,
        title: "Quantive Labs acquires Lumen",
        summary:
          'Quantive Labs published "Quantive acquires Lumen, the open-source metrics catalog" on its blog page (https://quantive.example/blog). \u27e8date\u27e9',
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "acquisition",
        category: "company",
        subject: "Lumen",
        value_before: null,
        value_after: null,
        evidence: [
          {
            source_url: "https://quantive.example/blog",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Quantive Labs acquires Lumen",
          },
        ],
      },
      {
        id: 1225,
        title: "Quantive Labs adds Growth plan at $3,166.67/month, billed yearly",
        summary:
          "Quantive Labs lists a new Growth plan at $3,166.67/month, billed yearly \u2014 Attribution models, Email support, Unlimited users, Up to 5 warehouse connections (https://quantive.example/pricing).",
        severity: "high",
        first_seen_at: "2026-11-21T12:00:00.000Z",
        type: "plan_added",
        category: "pricing",
        subject: "Growth",
        value_before: null,
        value_after: "listed",
        evidence: [
          {
            source_url: "https://quantive.example/pricing",
            observed_at: "2026-11-21T12:00:00.000Z",
            text: "Quantive Labs adds Growth plan at $3,166.67/month, billed yearly",
          },
        ],
      },
      {
        id: 1038,
        title: "Quantive Labs adds Databricks support",
        summary:
          "Customers on Databricks can now run Quantive's funnels and retention directly on their lakehouse.",
        severity: "high",
        first_seen_at: "2026-11-12T11:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-12T11:00:00.000Z",
            text: "Customers on Databricks can now run Quantive's funnels and retention directly on their lakehouse.",
          },
        ],
      },
      {
        id: 1040,
        title: "Quantive Labs publishes a case study with a large neobank",
        summary:
          "The case study claims a 40% cut in analytics costs after replacing a packaged analytics tool.",
        severity: "medium",
        first_seen_at: "2026-11-05T10:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-11-05T10:00:00.000Z",
            text: "The case study claims a 40% cut in analytics costs after replacing a packaged analytics tool.",
          },
        ],
      },
      {
        id: 1039,
        title: "Quantive Labs launches experiment readouts",
        summary: "A/B test results with sequential testing, computed in the customer's warehouse.",
        severity: "medium",
        first_seen_at: "2026-10-30T15:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-30T15:00:00.000Z",
            text: "A/B test results with sequential testing, computed in the customer's warehouse.",
          },
        ],
      },
      {
        id: 1041,
        title: "Quantive Labs raises its minimum contract to $24,000",
        summary: "The pricing page's starting price moved from $18,000 to $24,000 per year.",
        severity: "low",
        first_seen_at: "2026-10-19T08:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-19T08:00:00.000Z",
            text: "The pricing page's starting price moved from $18,000 to $24,000 per year.",
          },
        ],
      },
      {
        id: 1052,
        title: "Quantive Labs open-sources a dbt package for event modelling",
        summary: "The package standardises event tables so Quantive can query them without setup.",
        severity: "low",
        first_seen_at: "2026-10-09T15:00:00.000Z",
        evidence: [
          {
            observed_at: "2026-10-09T15:00:00.000Z",
            text: "The package standardises event tables so Quantive can query them without setup.",
          },
        ],
      },
    ] as BattlecardSignal[],
    card: {
      status: "generated",
      generated_at: "2026-11-13T07:00:00Z",
      sections: {
        overview:
          "Quantive Labs sells warehouse-native analytics to data teams: no copy of the data, SQL compiled against Snowflake, BigQuery and now Databricks. It competes when the data team owns the decision.",
        strengths: [
          "One source of truth: runs on the customer's warehouse",
          "Now supports Databricks alongside Snowflake and BigQuery",
          "Experiment readouts with sequential testing",
        ],
        weaknesses: [
          "Needs a modelled warehouse and a data team to start",
          "Minimum contract raised to $24,000 per year",
          "Thin self-serve experience for product managers",
        ],
        talk_tracks: [
          '"Who will answer the PMs\' questions on day one? Quantive needs your dbt models first."',
          '"We sync with your warehouse too \u2014 without a $24k minimum."',
        ],
      },
      evidence: {
        sources: [
          {
            title: "Quantive changelog \u2014 Databricks",
            url: "https://docs.quantive.example/changelog#databricks",
            observed_at: "2026-11-12T11:00:00Z",
          },
          {
            title: "Quantive pricing",
            url: "https://quantive.example/pricing",
            observed_at: "2026-10-19T08:00:00Z",
          },
        ],
      },
    },
  },
};
