// The browser for the browser tests: the Chromium build shipped inside the npm package @sparticuz/chromium
// (a devDependency, brotli-compressed in its bin/ folder), so `npm ci && npm test` needs no system browser,
// no root and no download. The first run unpacks it once into node_modules/.cache/rivals-chromium/<version>/
// (about 190 MB, a few seconds); later runs reuse it. The binary needs only libc, libgcc and libexpat.
// RIVALS_TEST_CHROMIUM=/path/to/chrome uses another Chromium instead (e.g. Debian's /usr/bin/chromium).
import {
  chmodSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  renameSync,
  rmSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { pipeline } from "node:stream/promises";
import { createBrotliDecompress } from "node:zlib";
import { type BrowserContext, chromium } from "playwright-core";

const PACKAGE = dirname(require.resolve("@sparticuz/chromium/package.json"));

/** Path of a runnable Chromium: RIVALS_TEST_CHROMIUM, else the packaged build, unpacked on first use. */
export async function chromiumPath(): Promise<string> {
  const override = process.env.RIVALS_TEST_CHROMIUM;
  if (override) {
    if (!existsSync(override)) throw new Error(`RIVALS_TEST_CHROMIUM=${override} does not exist`);
    return override;
  }
  const { version } = (await Bun.file(join(PACKAGE, "package.json")).json()) as { version: string };
  const dir = join(PACKAGE, "..", "..", ".cache", "rivals-chromium", version);
  const exe = join(dir, "chromium");
  if (existsSync(exe)) return exe;
  mkdirSync(dir, { recursive: true });
  // Unpack beside the target and rename: a concurrent run never sees a half-written binary.
  const part = `${exe}.${process.pid}.part`;
  try {
    await pipeline(
      createReadStream(join(PACKAGE, "bin", "chromium.br")),
      createBrotliDecompress(),
      createWriteStream(part),
    );
    chmodSync(part, 0o755);
    renameSync(part, exe);
  } finally {
    rmSync(part, { force: true });
  }
  return exe;
}

/** A headless persistent context in a fresh profile folder (the caller removes the folder). */
export async function launchChromium(
  profile: string,
  viewport: { width: number; height: number },
): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: await chromiumPath(),
    headless: true,
    viewport,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
