// Every environment variable is read in src/config.ts and listed in docs/configuration.md's table.
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { loadConfig } from "../src/config.ts";
import { startTestServer } from "./support/helpers.ts";
import { rawPost, toolsCall } from "./support/mcp-helpers.ts";

const ROOT = join(import.meta.dir, "..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(n) ? [p] : [];
  });
}

test("nothing in src/ but config.ts reads the environment", () => {
  const readers = files(join(ROOT, "src"))
    .filter((f) => relative(ROOT, f) !== "src/config.ts")
    .filter((f) => /\b(?:process\.env|Bun\.env|import\.meta\.env)\b/.test(readFileSync(f, "utf8")))
    .map((f) => relative(ROOT, f));
  expect(readers).toEqual([]);
});

test("every variable config.ts reads is in the configuration table (docs/configuration.md)", () => {
  const config = readFileSync(join(ROOT, "src/config.ts"), "utf8");
  const read = new Set([
    ...[...config.matchAll(/\benv\.([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]),
    ...[...config.matchAll(/"((?:RIVALS_)[A-Z0-9_]+)"/g)].map((m) => m[1]),
  ]);
  const table = readFileSync(join(ROOT, "docs/configuration.md"), "utf8");
  const listed = new Set(
    table
      .split("\n")
      .filter((l) => l.startsWith("| `"))
      .flatMap((l) => [...(l.split("|")[1] ?? "").matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1])),
  );
  expect([...read].filter((v) => !listed.has(v)).sort()).toEqual([]);
  expect(read.has("RIVALS_ALLOWED_ORIGINS") && read.has("RIVALS_WORKERS") && read.has("HOST")).toBe(true);
});

test("RIVALS_ALLOWED_ORIGINS: an origin it names may call POST /mcp, another is refused", async () => {
  const t = await startTestServer({ RIVALS_ALLOWED_ORIGINS: "https://agent.example, https://other.example" });
  try {
    const call = toolsCall("search_public_briefs", { query: "pricing" });
    expect((await rawPost(t.base, call, { origin: "https://agent.example" })).status).toBe(200);
    expect((await rawPost(t.base, call, { origin: "https://evil.example" })).status).toBe(403);
  } finally {
    await t.close();
  }
});

test("RIVALS_WORKERS and HOST: read once in the config, a bad worker count is a clear error", () => {
  expect(loadConfig({ RIVALS_WORKERS: "3" }).workers).toBe(3);
  expect(loadConfig({ RIVALS_WORKERS: "64" }).workers).toBe(16);
  expect(() => loadConfig({ RIVALS_WORKERS: "many" })).toThrow(
    "RIVALS_WORKERS must be an integer of at least 1",
  );
  expect(loadConfig({}).host).toBe("0.0.0.0");
  expect(loadConfig({ HOST: "127.0.0.1" }).host).toBe("127.0.0.1");
});
