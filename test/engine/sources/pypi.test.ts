// Why PyPI packages are not a source kind: pypi.org's robots.txt, as Warehouse (PyPI's code) serves it on
// pypi.org, refuses every crawler the package JSON API, and the fetcher obeys it for RivalsBot as for any other.
import { expect, test } from "bun:test";
import { parseRobots, robotsAllows } from "../../../src/engine/fetch/robots.ts";

/** pypi.org/robots.txt: Warehouse's warehouse/templates/robots.txt as rendered for the domain pypi.org. */
const PYPI_ROBOTS = `Sitemap: https://pypi.org/sitemap.xml

User-agent: *
Disallow: /simple/
Disallow: /packages/
Disallow: /_includes/authed/
Disallow: /pypi/*/json
Disallow: /pypi/*/*/json
Disallow: /pypi*?
Disallow: /search*
Disallow: /_/
Disallow: /integrity/
Disallow: /admin/
`;

const UA = "RivalsBot/1.0 (+https://rivals.example/bot)";
const verdict = parseRobots("https://pypi.org", PYPI_ROBOTS, UA);
const allowed = (u: string) => robotsAllows(verdict, new URL(u), UA);

test("the fetcher may not read PyPI's JSON API, its simple index or its search", () => {
  for (const u of [
    "https://pypi.org/pypi/globex-py/json",
    "https://pypi.org/pypi/globex-py/2.1.0/json",
    "https://pypi.org/pypi/Globex_Py/json",
    "https://pypi.org/simple/globex-py/",
    "https://pypi.org/search/?q=globex",
  ])
    expect({ u, allowed: allowed(u) }).toEqual({ u, allowed: false });
});

test("what pypi.org leaves open: a project's page and its releases feed", () => {
  for (const u of [
    "https://pypi.org/project/globex-py/",
    "https://pypi.org/rss/project/globex-py/releases.xml",
  ])
    expect({ u, allowed: allowed(u) }).toEqual({ u, allowed: true });
});
