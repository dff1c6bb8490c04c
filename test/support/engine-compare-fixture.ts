// A fictional competitor's home/pricing page as extraction hands it over, and a way to derive variants of it.
import type { PageExtract } from "../../src/engine/extract/page.ts";

export const URL = "https://globex.example/pricing";

export function basePage(): PageExtract {
  return {
    url: URL,
    title: "Globex — Pricing",
    lang: "en",
    meta: {
      description: "Simple pricing for teams of every size.",
      "og:title": "Globex — Pricing",
      "og:url": "https://globex.example/pricing?utm_source=twitter",
      "csrf-token": "Zx8Kq2LmN4pQ7rS9tU1vW3xYaa",
      "article:modified_time": "2026-11-20T10:00:00Z",
      viewport: "width=device-width",
    },
    jsonLd: [
      {
        "@context": "https://schema.org",
        "@type": "Organization",
        name: "Globex",
        url: "https://globex.example",
        foundingDate: "2015",
        address: { "@type": "PostalAddress", addressLocality: "Berlin", addressCountry: "DE" },
        sameAs: ["https://github.com/globex", "https://x.com/globex"],
        dateModified: "2026-11-20",
        aggregateRating: { "@type": "AggregateRating", ratingValue: 4.8, reviewCount: 2311 },
      },
    ],
    hero: { headline: "Ship faster with Globex", subheadline: "The platform for modern product teams" },
    blocks: [
      { kind: "heading", level: 1, text: "Ship faster with Globex" },
      {
        kind: "text",
        text: "We help teams ship faster. Updated November 20, 2026.",
        section: "Ship faster with Globex",
      },
      {
        kind: "text",
        text: "Join 12,345 happy customers — last deploy 3 hours ago",
        section: "Ship faster with Globex",
      },
      { kind: "text", text: "1.2M", section: "Ship faster with Globex" },
      { kind: "heading", level: 2, text: "Plans" },
      { kind: "card", title: "Starter", items: ["$0", "1 project", "Community support"], section: "Plans" },
      {
        kind: "card",
        title: "Team",
        items: ["$49 per seat/month", "Unlimited projects", "SSO", "Up to 10,000 contacts"],
        section: "Plans",
      },
      { kind: "card", title: "Enterprise", items: ["Contact sales", "Audit log", "SSO"], section: "Plans" },
      { kind: "heading", level: 2, text: "Features" },
      { kind: "list", items: ["Dashboards", "Alerts", "Reports"], section: "Features" },
      { kind: "heading", level: 2, text: "Integrations" },
      { kind: "list", items: ["Slack", "Jira", "GitHub"], section: "Integrations" },
      { kind: "heading", level: 2, text: "Loved by teams" },
      { kind: "text", text: "“Globex changed how we ship.” — Ana, Initech", section: "Loved by teams" },
      { kind: "list", items: ["Initech", "Umbrella", "Hooli", "Vandelay"], section: "Loved by teams" },
      { kind: "heading", level: 2, text: "FAQ" },
      {
        kind: "table",
        rows: [
          ["Feature", "Starter", "Team"],
          ["Projects", "1", "Unlimited"],
          ["Support", "Community", "Email"],
        ],
        section: "FAQ",
      },
      { kind: "text", text: "© 2025 Globex Inc. All rights reserved. Build a1b2c3d4", section: "FAQ" },
    ],
    links: {
      nav: [
        { url: "https://globex.example/", text: "Home" },
        { url: "https://globex.example/pricing", text: "Pricing" },
        { url: "https://globex.example/blog?v=123", text: "Blog" },
      ],
      footer: [
        { url: "https://globex.example/careers", text: "Careers" },
        { url: "https://globex.example/privacy", text: "Privacy" },
      ],
      body: [{ url: "https://globex.example/signup?ref=hero", text: "Start free" }],
    },
    feeds: [{ url: "https://globex.example/blog/feed.xml", type: "application/rss+xml" }],
    scripts: ["https://globex.example/assets/app.3f2a9c1d.js"],
    plans: [
      {
        name: "Starter",
        price: 0,
        currency: "USD",
        period: "month",
        features: ["1 project", "Community support"],
      },
      {
        name: "Team",
        price: 49,
        currency: "USD",
        period: "month",
        unit: "seat",
        features: ["Unlimited projects", "SSO", "Up to 10,000 contacts"],
      },
      { name: "Enterprise", price: null, custom: true, features: ["Audit log", "SSO"] },
    ],
    features: ["Dashboards", "Alerts", "Reports"],
    integrations: ["Slack", "Jira", "GitHub"],
    jobs: [],
    text: "We help teams ship faster.",
  };
}

/** A copy of the base page changed by `edit`. */
export function variant(edit: (p: PageExtract) => void): PageExtract {
  const p = structuredClone(basePage());
  edit(p);
  return p;
}

/** Replaces the text of the first text block containing `find`. */
export function setText(p: PageExtract, find: string, text: string): void {
  const b = p.blocks.find((x) => x.kind === "text" && x.text.includes(find));
  if (b?.kind !== "text") throw new Error(`no text block with ${find}`);
  b.text = text;
}

export function listIn(p: PageExtract, section: string): string[] {
  const b = p.blocks.find((x) => x.kind === "list" && x.section === section);
  if (b?.kind !== "list") throw new Error(`no list in ${section}`);
  return b.items;
}

export function card(p: PageExtract, title: string): string[] {
  const b = p.blocks.find((x) => x.kind === "card" && x.title === title);
  if (b?.kind !== "card") throw new Error(`no card ${title}`);
  return b.items;
}
