// Press releases as the wire services print them (PR Newswire, Business Wire, GlobeNewswire and a plain
// newsroom post): the headline and the lead decide what happened; the dateline, quotes and the "About"
// boilerplate — investors, headcount, past deals, forward-looking statements, media contacts — never do.
// The releases are written for these tests in the shape real ones have.
import { describe, expect, test } from "bun:test";
import { readNews } from "../../../src/engine/classify/news.ts";
import { releaseLead } from "../../../src/engine/classify/release.ts";

const ABOUT_GLOBEX = `About Globex Insights
Globex Insights is the product analytics platform for B2B software teams. Founded in 2017, the company employs more than 400 people in San Francisco, London and Berlin. Globex is backed by Sequoia Capital, Accel and Index Ventures and raised a $120 million Series C in 2024. In 2025 Globex acquired Lumen, and Jane Park joined as Chief Executive Officer. Learn more at globex.example.

Forward-Looking Statements
This press release contains forward-looking statements, including statements about the expected benefits of the partnership, that involve risks and uncertainties.

Media Contact
Riley Shaw, press@globex.example, +1 415 555 0100`;

describe("releaseLead", () => {
  test("drops the dateline, the quotes and everything from the boilerplate on", () => {
    const lead = releaseLead(
      `SAN FRANCISCO, Nov. 12, 2026 /PRNewswire/ -- Globex Insights, the product analytics platform for B2B teams, today announced the general availability of Globex Copilot. "Copilot changes how product teams work," said Jane Park, CEO of Globex.\n\n${ABOUT_GLOBEX}`,
    );
    expect(lead).toStartWith("Globex Insights, the product analytics platform");
    expect(lead).toContain("general availability of Globex Copilot");
    expect(lead).not.toContain("said Jane Park");
    expect(lead).not.toContain("Series C");
    expect(lead).not.toContain("press@globex.example");
  });

  test("Business Wire and GlobeNewswire datelines", () => {
    expect(
      releaseLead(
        "BOSTON--(BUSINESS WIRE)--Brightloop today announced a strategic partnership with Fivetran.",
      ),
    ).toBe("Brightloop today announced a strategic partnership with Fivetran.");
    expect(
      releaseLead(
        "BERLIN, Nov. 03, 2026 (GLOBE NEWSWIRE) -- Quantive Labs today announced the appointment of Maria Chen as Chief Revenue Officer.",
      ),
    ).toStartWith("Quantive Labs today announced the appointment");
  });
});

describe("what a release says", () => {
  test('"X & Y Partner to …" is a partnership with Y', () => {
    const n = readNews(
      "Globex & Snowflake Partner to Bring Product Analytics to the Data Cloud",
      `SAN FRANCISCO, Nov. 12, 2026 /PRNewswire/ -- Globex Insights and Snowflake today announced a partnership that lets joint customers analyse product usage where their data lives.\n\n${ABOUT_GLOBEX}`,
      "Globex",
      "press",
    );
    expect(n).toMatchObject({ category: "company", type: "partnership", subject: "Snowflake" });
  });

  test("a lead that says 'a strategic partnership with' is a partnership, whatever the headline says", () => {
    const n = readNews(
      "Brightloop Expands Its Data Ecosystem",
      "BOSTON--(BUSINESS WIRE)--Brightloop, the onboarding platform for SaaS teams, today announced a strategic partnership with Fivetran, bringing more than 500 connectors to Brightloop customers.",
      "Brightloop",
      "press",
    );
    expect(n).toMatchObject({ type: "partnership", subject: "Fivetran" });
  });

  test("a launch however the wire service words it", () => {
    expect(
      readNews(
        "Northwind Brings Renewal Forecasts to Every Plan",
        "AUSTIN, Texas, Oct. 2, 2026 /PRNewswire/ -- Northwind today announced the general availability of Renewal Forecasts, which predicts churn risk from billing and usage data.",
        "Northwind",
        "press",
      ),
    ).toMatchObject({ category: "product", type: "feature_launch", subject: "Renewal Forecasts" });
    expect(
      readNews(
        "Globex Debuts Copilot for Product Teams",
        "SAN FRANCISCO--(BUSINESS WIRE)--Globex Insights today introduced Copilot.",
        "Globex",
        "press",
      ),
    ).toMatchObject({ type: "feature_launch", subject: "Copilot for Product Teams" });
    expect(
      readNews("Quantive Makes AI Forecasting Available to All Customers", "", "Quantive", "press"),
    ).toMatchObject({ type: "feature_launch" });
  });

  test("the boilerplate's investors, round, headcount, acquisition and CEO are never the news", () => {
    for (const title of [
      "Globex Named a Leader in the 2026 Product Analytics Wave",
      "Globex Raises the Bar for Product Analytics With Its Fall Release Event",
      "Globex to Present at the Jefferies Software Conference",
    ]) {
      const n = readNews(
        title,
        `SAN FRANCISCO, Nov. 12, 2026 /PRNewswire/ -- Globex Insights will host its fall event on December 3.\n\n${ABOUT_GLOBEX}`,
        "Globex",
        "press",
      );
      expect({ title, type: n?.type ?? null }).toEqual({ title, type: null });
    }
  });

  test("a funding release is funding, its round and amount from the headline and lead only", () => {
    const n = readNews(
      "Brightloop Raises $40 Million Series B to Expand Into Europe",
      `NEW YORK, Nov. 4, 2026 /PRNewswire/ -- Brightloop today announced it has raised $40 million in Series B funding led by Northzone. "We will triple the team," said the CEO.\n\nAbout Brightloop\nBrightloop previously raised a $12 million Series A led by Seedcamp and employs 120 people.`,
      "Brightloop",
      "press",
    );
    expect(n).toMatchObject({ type: "funding", subject: "Series B $40 Million" });
  });

  test("an appointment in the lead under a headline that names no role", () => {
    const n = readNews(
      "Quantive Strengthens Its Leadership Team",
      "BERLIN, Nov. 03, 2026 (GLOBE NEWSWIRE) -- Quantive Labs today announced the appointment of Maria Chen as Chief Revenue Officer. Chen joins from Salesforce.",
      "Quantive",
      "press",
    );
    expect(n).toMatchObject({ type: "leadership_change", severity: "high" });
  });

  test("a partner or a role named only inside a quote is not the news", () => {
    expect(
      readNews(
        "Tallyhq Opens Its Community Forum",
        `LONDON, 12 November 2026 — Tallyhq opened a forum for its users. "It feels like a partnership with our customers," said the founder.`,
        "Tallyhq",
        "press",
      ),
    ).toBeNull();
  });
});
