// Shared by the browser tests of the app's pages: a signed-in Chromium page at desktop or phone width, the
// accessibility check (axe-core, evaluated in the page), and the page-overflow measure.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./browser.ts";

export const ARTIFACTS = join(import.meta.dir, "..", "artifacts");
export const WIDTHS = { desktop: { width: 1280, height: 900 }, phone: { width: 390, height: 844 } };
export type Width = keyof typeof WIDTHS;

const AXE = readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

/** Browsers opened by one test file; `close()` ends them and removes their profiles. */
export function browsers() {
  const contexts: BrowserContext[] = [];
  const profiles: string[] = [];
  return {
    /** A fresh browser at `width`, signed in through the sign-in page that `path` redirects to. */
    async signedIn(base: string, path: string, width: Width, email: string, password: string): Promise<Page> {
      const profile = mkdtempSync(join(tmpdir(), "rivals-chromium-"));
      profiles.push(profile);
      const context = await launchChromium(profile, WIDTHS[width]);
      contexts.push(context);
      const page = await context.newPage();
      await page.goto(`${base}${path}`);
      await page.fill('input[name="email"]', email);
      await page.fill('input[name="password"]', password);
      await Promise.all([
        page.waitForURL((u) => !u.pathname.startsWith("/signin")),
        page.click('form[action="/signin"] button'),
      ]);
      return page;
    },
    async close() {
      for (const c of contexts) await c.close();
      for (const p of profiles) rmSync(p, { recursive: true, force: true });
    },
  };
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (evaluated over the DevTools
 * protocol, so the page's Content-Security-Policy does not block it). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  const result = (await page.evaluate("axe.run(document, { resultTypes: ['violations'] })")) as {
    violations: AxeViolation[];
  };
  return result.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target })),
    }));
}

/** How far the document is wider than the window (0: no sideways scrolling of the page). */
export const pageOverflow = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
