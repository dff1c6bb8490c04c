// The demo workspace's control on its app page (admins only): what the engine is doing (researching the
// competitors, a cycle running, ready and what the last cycle found), and "Advance the demo sites", which moves the
// demo's fictional websites to their next version (src/demo/web.ts: v1 → v2 planted changes → v3 noise only) and
// runs a monitoring cycle — at once, or, while research or the baseline cycle still runs, queued to right after
// (src/demo/engine.ts), so the press always ends in the cycle that looks for its changes.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import type { Membership } from "../auth/session.ts";
import { advanceDemo, type DemoEngineState, demoEngineState } from "../demo/engine.ts";
import { DEMO_VERSIONS } from "../demo/web.ts";
import { DEMO_ORG } from "../demo/workspace.ts";
import type { Services } from "../services.ts";
import { Csrf, Time } from "./components.tsx";
import { notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { adminsOnly, formMember } from "./member.ts";

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const found = (n: number) => (n === 0 ? "no new signal" : plural(n, "new signal"));

/** One line on what the engine is doing now, from the database (and this process's start-up work). */
function EngineLine({ st }: { st: DemoEngineState }): JSX.Element {
  const last = st.cycle.last_cycle;
  if (st.researching.length)
    return (
      <p data-demo-engine="researching">
        <strong>Researching</strong>{" "}
        <span safe>{`the demo competitors' websites (now: ${st.researching.join(", ")}).`}</span> The first
        monitoring cycle follows and takes the baseline the next changes are compared with.
      </p>
    );
  if (st.cycle.running_since || st.advancing)
    return (
      <p data-demo-engine="cycle">
        <strong>A monitoring cycle is running</strong>
        {st.cycle.running_since ? (
          <>
            {" "}
            (started <Time ts={st.cycle.running_since} />)
          </>
        ) : (
          ""
        )}
        . Reload in a few seconds to see what it found.
      </p>
    );
  if (st.starting)
    return (
      <p data-demo-engine="starting">
        <strong>Starting:</strong> research of the demo competitors, then the first, baseline cycle.
      </p>
    );
  const lastLine = last ? (
    <>
      <span
        safe
      >{`: ${plural(last.pages_checked ?? 0, "page")} checked, ${plural(last.pages_changed ?? 0, "page")} changed, ${found(last.signals_created ?? 0)}`}</span>
      {(last.signals_created ?? 0) > 0 ? " (in the feed below)." : "."}
    </>
  ) : (
    ""
  );
  // After an advance, what every cycle since found: a later cycle that finds nothing does not hide the changes.
  const adv = st.version > 1 ? st.advance : undefined;
  if (adv)
    return (
      <p data-demo-engine="ready" data-since-advance={String(adv.signals_created)}>
        <strong>Ready.</strong> Since the sites moved to version <span safe>{String(st.version)}</span> (
        <Time ts={adv.at} />)
        {adv.cycles === 0 ? (
          <span>, no monitoring cycle has run yet: the next one reads them.</span>
        ) : (
          <>
            <span
              safe
            >{`, ${adv.cycles === 1 ? "the monitoring cycle" : `${adv.cycles} monitoring cycles`} found ${adv.signals_created === 0 ? "no new signal" : plural(adv.signals_created, "new signal")}`}</span>
            {adv.signals_created > 0 ? " (in the feed below)." : "."}
          </>
        )}
        {last && adv.cycles > 1 ? (
          <>
            {" "}
            The last one finished <Time ts={last.finished_at} />
            {lastLine}
          </>
        ) : (
          ""
        )}
      </p>
    );
  return (
    <p data-demo-engine="ready">
      <strong>Ready.</strong>{" "}
      {last ? (
        <>
          Last cycle finished <Time ts={last.finished_at} />
          {lastLine}
        </>
      ) : (
        "No monitoring cycle has run yet."
      )}
    </p>
  );
}

/** Shown on the demo workspace's feed to its admins. */
export async function DemoPanel(p: {
  s: Services;
  org: Membership;
  csrf: string;
  done?: string;
}): Promise<JSX.Element> {
  if (p.org.orgSlug !== DEMO_ORG || p.org.role !== "admin") return "";
  const st = await demoEngineState(p.s, p.org.orgId);
  const version = st.version;
  return (
    <section class="notice demo-sites" aria-label="Demo sites">
      <p>
        <strong>Demo:</strong>{" "}
        <span safe>{`the competitors' demo websites are at version ${version} of ${DEMO_VERSIONS}.`}</span>
        {p.done === "demo-advanced" ? <span> Advanced, and a monitoring cycle started:</span> : ""}
      </p>
      <EngineLine st={st} />
      {st.queuedAt ? (
        <p data-demo-queued>
          <strong>Advance queued</strong> (pressed <Time ts={st.queuedAt} />
          ): the sites move to their next version and a monitoring cycle looks for the changes as soon as
          research and the baseline cycle have finished — a cycle can only find a change against what it read
          before.
        </p>
      ) : version < DEMO_VERSIONS ? (
        <form method="post" action="/app/demo/advance" class="inline">
          <Csrf token={p.csrf} />
          <input type="hidden" name="org" value={p.org.orgSlug} />
          <button type="submit">Advance the demo sites</button>
          <span class="muted small">
            {version === 1
              ? " Plants real changes (prices, plans, a launch, hiring, funding …) and runs a cycle."
              : " Only noise changes next (dates, counters, reordered lists …): the cycle must find nothing."}
          </span>
        </form>
      ) : (
        <p class="muted small">The demo sites are at their last version.</p>
      )}
    </section>
  );
}

export function demoPages(s: Services) {
  return new Elysia({ name: "web-demo" }).post("/app/demo/advance", async ({ request, body }) => {
    const f = await formMember(s, request, body);
    if (f instanceof Response) return f;
    const { m, org } = f;
    if (org.orgSlug !== DEMO_ORG) notFound();
    if (org.role !== "admin") return adminsOnly(m, org);
    const r = await advanceDemo(s, org.orgId);
    return redirect(
      `/app?org=${encodeURIComponent(org.orgSlug)}&done=${r.queued ? "demo-queued" : "demo-advanced"}`,
    );
  });
}
