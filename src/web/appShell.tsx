// The frame of every signed-in page: the site layout, the app's own navigation and the workspace switcher.
/** @jsxRuntime classic */
/** @jsx Html.createElement */
/** @jsxFrag Html.Fragment */
import type { Membership, SessionUser } from "../auth/session.ts";
import { Csrf } from "./components.tsx";
import { Html, Layout } from "./layout.tsx";

export type AppSection =
  | "feed"
  | "competitors"
  | "compare"
  | "digests"
  | "battlecards"
  | "integrations"
  | "members"
  | "monitoring"
  | "account"
  | "";

const SECTIONS: [AppSection, string, string][] = [
  ["feed", "/app", "Signals"],
  ["competitors", "/app/competitors", "Competitors"],
  ["compare", "/app/compare", "Compare"],
  ["digests", "/app/digests", "Digests"],
  ["battlecards", "/app/battlecards", "Battlecards"],
  ["integrations", "/app/settings/integrations", "Integrations"],
  ["members", "/app/settings/members", "Members"],
  ["monitoring", "/app/settings/monitoring", "Monitoring"],
  ["account", "/app/settings/account", "Account"],
];

export interface AppPageProps {
  session: SessionUser;
  /** The workspace shown. */
  current: Membership | undefined;
  title: string;
  section: AppSection;
  /** Where the switcher sends the chosen workspace (a list page). */
  switchTo?: string;
  children?: JSX.Element | (JSX.Element | JSX.Element[])[] | string;
}

export function WorkspaceSwitcher({
  session,
  current,
  action,
}: {
  session: SessionUser;
  current: Membership | undefined;
  action: string;
}): JSX.Element {
  if (session.memberships.length < 2 || !current) return "";
  return (
    <form method="get" action={action} class="switcher">
      <label for="org-switch" class="inline-label">
        Workspace
      </label>
      <select id="org-switch" name="org">
        {session.memberships.map((m) => (
          <option value={m.orgSlug} selected={m.orgId === current.orgId} safe>
            {m.orgName}
          </option>
        ))}
      </select>
      <button type="submit" class="secondary">
        Switch
      </button>
    </form>
  );
}

export function AppPage({ session, current, title, section, switchTo, children }: AppPageProps): JSX.Element {
  return (
    <Layout title={title} user={session.name ?? session.email}>
      <div class="appbar">
        <nav class="appnav" aria-label="App">
          {SECTIONS.map(([key, href, label]) => (
            <a href={href} aria-current={key === section ? "page" : undefined}>
              {Html.escapeHtml(label)}
            </a>
          ))}
        </nav>
        <div class="wsname">
          {current ? (
            <span class="muted" safe>
              {current.orgName}
            </span>
          ) : (
            ""
          )}
          <WorkspaceSwitcher session={session} current={current} action={switchTo ?? "/app"} />
          <form method="post" action="/signout" class="inline">
            <Csrf token={session.csrfToken} />
            <button type="submit" class="secondary">
              Sign out
            </button>
          </form>
        </div>
      </div>
      {children as "safe"}
    </Layout>
  );
}

/** Shown when the signed-in person belongs to no workspace yet. */
export function NoWorkspace({ session }: { session: SessionUser }): JSX.Element {
  return (
    <AppPage session={session} current={undefined} title="No workspace" section="">
      <h1>No workspace yet</h1>
      <p>
        You are signed in as <strong safe>{session.email}</strong> but are not a member of any workspace. Ask
        an admin for an invitation, or <a href="/signup">create a workspace</a>.
      </p>
    </AppPage>
  );
}
