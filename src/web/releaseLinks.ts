// Where a release cadence was read, for people: the competitor page and the compare table both link it.

/** Where a release cadence was read, in a word. */
export const cadenceSource = (href: unknown) =>
  typeof href === "string" && /^https:\/\/(?:api\.)?github\.com\//.test(href)
    ? "GitHub releases"
    : "changelog";

/** The page a person opens for a cadence's source: a repository's releases on github.com, not GitHub's API. */
export const cadenceHref = (href: unknown) => {
  const m =
    typeof href === "string"
      ? /^https:\/\/api\.github\.com\/repos\/([^/?#]+\/[^/?#]+)\/releases/.exec(href)
      : null;
  return m ? `https://github.com/${m[1]}/releases` : href;
};
