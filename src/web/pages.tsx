// Every server-rendered page of docs/web.md "Pages", mounted by src/app.ts with one `.use(webPages(s))`.
import { Elysia } from "elysia";
import type { Services } from "../services.ts";
import { accountPages } from "./account.tsx";
import { appPages } from "./app.tsx";
import { atomFeedRoutes } from "./atomFeed.ts";
import { botPage } from "./bot.tsx";
import { comparePages } from "./compare.tsx";
import { connectedAppsRoutes } from "./connectedApps.tsx";
import { demoPages } from "./demo.tsx";
import { developerPages } from "./developers.tsx";
import { feedPages } from "./feed.tsx";
import { freeBriefPages } from "./freeBrief.tsx";
import { integrationsPages } from "./integrations.tsx";
import { libraryPages } from "./library.tsx";
import { membersPages } from "./members.tsx";
import { monitoringSettingsPages } from "./monitoringSettings.tsx";
import { publicPages } from "./public.tsx";
import { researchPages } from "./research.tsx";
import { signalActionRoutes } from "./signalActions.tsx";
import { signupPages } from "./signup.tsx";
import { startPages } from "./start.tsx";

export function webPages(s: Services) {
  return new Elysia({ name: "web-pages" })
    .use(publicPages(s))
    .use(botPage(s))
    .use(developerPages(s))
    .use(freeBriefPages(s))
    .use(signupPages(s))
    .use(libraryPages(s))
    .use(feedPages(s))
    .use(appPages(s))
    .use(signalActionRoutes(s))
    .use(comparePages(s))
    .use(researchPages(s))
    .use(startPages(s))
    .use(demoPages(s))
    .use(integrationsPages(s))
    .use(atomFeedRoutes(s))
    .use(connectedAppsRoutes(s))
    .use(membersPages(s))
    .use(monitoringSettingsPages(s))
    .use(accountPages(s));
}
