// Code rules: a GitHub organisation the competitor's site links (sources/github.ts). A new public repository is
// a low signal with the repository as its evidence; its stars and push times are not in the snapshot, so they
// never reach a rule.
import type { Change } from "../compare/types.ts";
import { evidence, push, type Rules, rule } from "./rule.ts";
import { clip, slug } from "./wording.ts";

/** The page kind the classifier reads a GitHub organisation's repositories as. */
export const GITHUB_ORG = "github_org";

export const newRepository = rule(
  {
    id: "newRepository",
    family: "code",
    reads: ["feed_item_added"],
    gives: { product: ["open_source"] },
    severity: "low",
    when: "A new public repository (not a fork, not archived) under a GitHub organisation the site links.",
  },
  function newRepository(r: Rules, c: Change): void {
    const org = r.ctx.pageTitle?.replace(/ on GitHub$/, "") ?? "GitHub";
    const name = c.subject;
    const about = c.context ? clip(c.context, 300) : undefined;
    const text = about ? `${org}/${name} — ${about}` : `${org}/${name}`;
    push(r, {
      key: `product:open_source:${slug(`${org}-${name}`)}`,
      category: "product",
      type: "open_source",
      severity: "low",
      severity_reasons: ["a new public repository: work in the open, not yet a release"],
      confidence: 0.9,
      confidence_reasons: ["listed by GitHub's API among the organisation's public repositories"],
      title: `${r.name} published a new public repository on GitHub: ${org}/${name}`,
      summary: about
        ? `${r.name} published ${org}/${name} on GitHub: ${about}`
        : `${r.name} published ${org}/${name} on GitHub.`,
      evidence: [evidence(r, c, text, c.link ?? c.url, `${org} on GitHub`)],
      subject: `${org}/${name}`,
    });
  },
);
