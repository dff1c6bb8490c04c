// The dossier's release cadence: the headline cadence with where it was read, and each channel research read
// (a changelog, a repository's releases, its pre-releases) when there are several; channel names are text.
import { expect, test } from "bun:test";
import { ReleaseCadenceView } from "../../src/web/dossier.tsx";

const GH = "https://api.github.com/repos/globex-insights/globex-js/releases?per_page=30";

test("the headline cadence, then each channel with its cadence and source", async () => {
  const html = String(
    await ReleaseCadenceView({
      rel: {
        releases_last_90_days: 4,
        median_days_between: 14,
        last_release_at: "2026-11-05T00:00:00.000Z",
        source: "https://globex.example/changelog",
        channels: [
          {
            channel: "changelog",
            source: "https://globex.example/changelog",
            releases_last_90_days: 4,
            median_days_between: 14,
            last_release_at: "2026-11-05T00:00:00.000Z",
          },
          {
            channel: 'globex-js <img src=x onerror="1"> releases',
            source: GH,
            releases_last_90_days: 3,
            last_release_at: "2026-11-04T18:22:10.000Z",
          },
        ],
      },
    }),
  );
  const text = html.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
  expect(text).toContain("4 releases in 90 days, typically 14 days apart; the latest");
  expect(text).toContain("changelog: 4 in 90 days, typically 14 days apart; the latest");
  expect(html).toContain("globex-js &lt;img");
  expect(html).not.toContain("<img");
  // GitHub's API answer is linked as the repository's releases page a person reads
  expect(html).toContain('href="https://github.com/globex-insights/globex-js/releases"');
  expect(text).toContain("GitHub releases");
  // one channel only: no list
  const one = String(await ReleaseCadenceView({ rel: { releases_last_90_days: 1, source: GH } }));
  expect(one).not.toContain("<ul");
  expect(one).toContain(">GitHub releases</a>");
});
