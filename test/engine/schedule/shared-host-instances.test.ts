// Two instances on one libSQL server, each running a workspace's cycle at once, whose competitors all read a page
// on one host they share (a job board provider): the shared host is asked no more often than the politeness pause
// between the two instances together, while each competitor's own site keeps only its instance's own pause.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { runCycle } from "../../../src/engine/cycle/run.ts";
import { type Cluster, startCluster } from "../../support/cluster.ts";
import { type HostSites, hostPage, seedWorkspace, serveHosts } from "../../support/host-sites.ts";

setDefaultTimeout(60_000);

const SHARED = "boards.shared.test";
const PAUSE_MS = 300;
let site: HostSites;
let cluster: Cluster;

beforeAll(async () => {
  site = serveHosts({ record: true, page: (host, path) => hostPage(host, path) });
  cluster = await startCluster(2, {
    RIVALS_ARCHIVE_MONTHS: "0",
    RIVALS_FETCH_DELAY_MS: String(PAUSE_MS),
    RIVALS_FETCH_REWRITE: site.rewrite,
    RIVALS_SCHEDULER: "off",
  });
});
afterAll(async () => {
  await cluster.close();
  site.stop();
});

test("instances reading one shared host keep its pause between them", async () => {
  const [a, b] = cluster.instances.map((i) => i.services);
  const seeded = await Promise.all(
    [a, b].map((s, w) =>
      seedWorkspace(s, {
        slug: `turns${w}`,
        websites: Array.from({ length: 3 }, (_, i) => `https://own${w}-${i}.turns.test`),
        pages: [["/", "home"]],
        elsewhere: (website) => [[`https://${SHARED}/${new URL(website).hostname}/jobs`, "careers"]],
      }),
    ),
  );
  const sums = await Promise.all([
    runCycle(a, seeded[0], { trigger: "operator" }),
    runCycle(b, seeded[1], { trigger: "operator" }),
  ]);
  for (const sum of sums) expect(sum.pages_checked).toBe(6);
  const shared = site.arrivals.filter((x) => x.host === SHARED && x.path !== "/robots.txt");
  expect(shared.length).toBe(6);
  // Both instances' requests are there, a pause after each other: from the first to the last, five pauses (the
  // site's times are taken in this process, which a cycle's collection may hold for a moment: the span, not each
  // gap). Without the turns each instance would keep only its own three requests apart, about two pauses in all.
  expect(new Set(shared.map((x) => x.path.split("/")[1].split("-")[0])).size).toBe(2);
  expect(shared[5].at - shared[0].at).toBeGreaterThan(PAUSE_MS * 4);
  // The turn is kept in the database, the own hosts' requests took none.
  const turns = await a.database.execute("SELECT host FROM host_turns");
  expect(turns.rows.map((r) => String(r.host))).toEqual([SHARED]);
});
