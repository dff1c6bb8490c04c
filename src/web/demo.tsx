// The demo workspace's control on its app page (admins only): "Advance the demo sites" moves the demo's
// fictional websites to their next version (src/demo/web.ts: v1 → v2 planted changes → v3 noise only) and runs a
// monitoring cycle in the background, so the feed shows what the engine found. Same as `rivals demo advance`.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import { Elysia } from "elysia";
import { type Membership, verifyCsrf } from "../auth/session.ts";
import { DEMO_ORG } from "../cli/demo.ts";
import { advanceDemoSites, DEMO_VERSIONS, demoSitesVersion } from "../demo/web.ts";
import { runCycle } from "../engine/cycle/run.ts";
import type { Services } from "../services.ts";
import { member } from "./app.tsx";
import { Csrf } from "./components.tsx";
import { csrfRefused, refusalPage } from "./errors.tsx";
import { field, notFound, redirect } from "./http.ts";
import { Html } from "./layout.tsx";
import { membershipBySlug } from "./workspace.ts";

/** Shown on the demo workspace's feed to its admins. */
export async function DemoPanel(p: {
  s: Services;
  org: Membership;
  csrf: string;
  done?: string;
}): Promise<JSX.Element> {
  if (p.org.orgSlug !== DEMO_ORG || p.org.role !== "admin") return "";
  const version = await demoSitesVersion(p.s);
  return (
    <section class="notice demo-sites" aria-label="Demo sites">
      <p>
        <strong>Demo:</strong>{" "}
        <span safe>{`the competitors' demo websites are at version ${version} of ${DEMO_VERSIONS}.`}</span>
        {p.done === "demo-advanced" ? (
          <span> Advanced: a monitoring cycle is running; reload in a few seconds to see what it found.</span>
        ) : (
          ""
        )}
      </p>
      {version < DEMO_VERSIONS ? (
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
    const m = await member(s, request);
    if (m instanceof Response) return m;
    if (!verifyCsrf(m.session, field(body, "csrf"))) return csrfRefused(m.session.email);
    const org = membershipBySlug(m.session, field(body, "org")) ?? notFound();
    if (org.orgSlug !== DEMO_ORG) notFound();
    if (org.role !== "admin")
      return refusalPage("Admins only", "Only workspace admins can do this.", 403, m.session.email);
    await advanceDemoSites(s);
    void runCycle(s, org.orgId, { trigger: "demo" }).catch((e) =>
      console.error(JSON.stringify({ level: "error", demo_cycle: String((e as Error)?.message ?? e) })),
    );
    return redirect(`/app?org=${encodeURIComponent(org.orgSlug)}&done=demo-advanced`);
  });
}
