// App rules: an App Store app the competitor's site links (sources/appStore.ts). A new version is a release
// (medium with release notes, low without); the average rating falling by RATING_DROP stars or more between two
// checks is a signal a sales team can use.
import { possessive } from "../../domain/prose.ts";
import type { Change } from "../compare/types.ts";
import { RATING_DROP } from "../sources/appStore.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import { clip, slug } from "./wording.ts";

export const appStoreApp = rule(
  {
    id: "appStoreApp",
    family: "apps",
    reads: ["field_changed"],
    gives: { product: ["release", "rating_drop"] },
    severity: "medium (a version with release notes, a rating drop), low (a version without notes)",
    when: `An App Store app the site links: a new version, or its average rating down by ${RATING_DROP} stars or more since the last check.`,
  },
  function appStoreApp(r: Rules, c: Change): boolean {
    const f = r.ctx.snapshot?.fields ?? {};
    const app = f.app ?? "its app";
    const id = /[?&]id=(\d+)/.exec(c.url)?.[1];
    const page = id ? `https://apps.apple.com/app/id${id}` : c.url;
    if (c.subject === "version" && c.after) {
      const notes = f.release_notes;
      push(r, {
        key: `product:release:app-${slug(app)}-${slug(c.after)}`,
        category: "product",
        type: "release",
        severity: notes ? "medium" : "low",
        severity_reasons: [
          notes ? "a new app version with release notes" : "a new app version without notes",
        ],
        confidence: 0.9,
        confidence_reasons: ["the App Store's lookup API"],
        title: `${r.name} released ${app} ${c.after} on the App Store`,
        summary: notes
          ? `${app} ${c.after} (was ${c.before ?? "not listed"}): ${clip(notes, 300)}`
          : `${app} moved from ${c.before ?? "no version"} to ${c.after} on the App Store.`,
        evidence: [
          evidence(
            r,
            c,
            notes ? `${app} ${c.after}: ${clip(notes, 400)}` : `${app} ${c.after}`,
            page,
            `${app} on the App Store`,
          ),
        ],
        subject: `${app} ${c.after}`,
      });
      return true;
    }
    if (c.subject === "rating" && c.before && c.after) {
      const drop = Number(c.before) - Number(c.after);
      if (!(drop >= RATING_DROP - 1e-9)) return false;
      push(r, {
        key: `product:rating_drop:app-${slug(app)}`,
        category: "product",
        type: "rating_drop",
        severity: "medium",
        severity_reasons: [
          `the average rating fell ${drop.toFixed(1)} stars (a drop of ${RATING_DROP} or more)`,
        ],
        confidence: 0.85,
        confidence_reasons: ["the App Store's lookup API, rounded to a tenth of a star"],
        title: `${possessive(app)} App Store rating fell from ${c.before} to ${c.after}`,
        summary: `${possessive(r.name)} ${app} is rated ${c.after} stars on the App Store, down from ${c.before}.`,
        evidence: [
          evidence(r, c, `${app}: average rating ${c.before} → ${c.after}`, page, `${app} on the App Store`),
        ],
        subject: app,
      });
      return true;
    }
    return false;
  },
);
