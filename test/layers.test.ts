// Layers point one way: no module of src/, events/ or projections/ reaches itself through value imports (type-only
// imports aside), and nothing but the entry point and the CLI imports the CLI. The event log, the projections,
// the contract and the HTTP kit import no surface; one root (src/app.ts) mounts the surfaces. Read from the
// source text (import declarations).
// Deciders decide: loading state and allocating ids happen around them, so each is a pure function (its
// syntax tree read with the TypeScript parser).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize, relative } from "node:path";
import ts from "typescript";

const ROOT = join(import.meta.dir, "..");
const SRC = join(ROOT, "src");
const EVENTS = join(ROOT, "events");
const PROJECTIONS = join(ROOT, "projections");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (statSync(p).isDirectory()) return files(p);
    return /\.tsx?$/.test(n) && !n.endsWith(".d.ts") ? [p] : [];
  });
}

/** Relative imports that bring values (not `import type`, not `{ type A, type B }` only). */
function valueImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  const out: string[] = [];
  for (const m of text.matchAll(/^(?:import|export)\s+(type\s+)?([^;]*?)\s+from\s+"(\.[^"]+)"/gms)) {
    const [, typeOnly, clause, path] = m;
    if (typeOnly) continue;
    const braces = /\{([^}]*)\}/.exec(clause);
    const outside = braces ? clause.replace(braces[0], "").replace(/[\s,]/g, "") : clause;
    const names = braces
      ? braces[1]
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean)
      : [];
    if (braces && !outside && names.length && names.every((n) => n.startsWith("type "))) continue;
    out.push(normalize(join(dirname(file), path)));
  }
  return out;
}

/** Every relative import, type-only ones included. */
function allImports(file: string): string[] {
  const text = readFileSync(file, "utf8");
  return [...text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/gms)].map((m) =>
    normalize(join(dirname(file), m[1]!)),
  );
}

const graph = new Map(
  [...files(SRC), ...files(EVENTS), ...files(PROJECTIONS)].map((f) => [f, valueImports(f)]),
);
const rel = (f: string) => relative(ROOT, f);

test("no import circle of values in src/, events/ and projections/", () => {
  const state = new Map<string, "open" | "done">();
  const circles: string[][] = [];
  const stack: string[] = [];
  const visit = (f: string) => {
    state.set(f, "open");
    stack.push(f);
    for (const g of graph.get(f) ?? []) {
      if (!graph.has(g)) continue;
      if (state.get(g) === "open") circles.push([...stack.slice(stack.indexOf(g)), g].map(rel));
      else if (!state.has(g)) visit(g);
    }
    stack.pop();
    state.set(f, "done");
  };
  for (const f of graph.keys()) if (!state.has(f)) visit(f);
  expect(circles).toEqual([]);
});

test("only the entry point and the CLI import src/cli", () => {
  const cli = join(SRC, "cli");
  const importers = [...graph]
    .filter(([f, deps]) => !f.startsWith(cli) && deps.some((d) => d.startsWith(cli)))
    .map(([f]) => rel(f));
  expect(importers).toEqual(["src/main.ts"]);
});

test("the domain decides and imports no engine, OAuth, web or mail (type imports included)", () => {
  const domain = join(SRC, "domain");
  const banned = ["engine", "oauth", "web", "mail"].map((d) => join(SRC, d));
  const found: string[] = [];
  for (const f of files(domain)) {
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/^(?:import|export)\s[^;]*?\sfrom\s+"(\.[^"]+)"/gms)) {
      const target = normalize(join(dirname(f), m[1]));
      if (banned.some((b) => target.startsWith(`${b}/`))) found.push(`${rel(f)} → ${relative(SRC, target)}`);
    }
  }
  expect(found).toEqual([]);
});

test("every event is decided in src/domain: no other part of src/ writes an event object", async () => {
  const { eventTypes } = await import("../events/catalog.ts");
  const types = new Set<string>(eventTypes);
  const outside: string[] = [];
  for (const f of files(SRC)) {
    if (f.startsWith(`${join(SRC, "domain")}/`)) continue;
    const text = readFileSync(f, "utf8");
    for (const m of text.matchAll(/\btype:\s*"([A-Z][A-Za-z]+)"/g))
      if (types.has(m[1])) outside.push(`${rel(f)}: ${m[1]}`);
  }
  expect(outside).toEqual([]);
});

test("deciders decide: every decide… function in src/domain is synchronous and reads nothing, allocates nothing", () => {
  const domain = join(SRC, "domain");
  const deciders: string[] = [];
  const impure: string[] = [];
  for (const f of files(domain)) {
    const text = readFileSync(f, "utf8");
    const source = ts.createSourceFile(f, text, ts.ScriptTarget.Latest, true);
    const check = (name: string, fn: ts.SignatureDeclaration & { body?: ts.Node }) => {
      if (!/^decide[A-Z]/.test(name) || !fn.body) return;
      const where = `${rel(f)}: ${name}`;
      deciders.push(where);
      const body = fn.body.getText(source);
      if (ts.getCombinedModifierFlags(fn as ts.Declaration) & ts.ModifierFlags.Async)
        impure.push(`${where} is async`);
      if (/\.execute\s*\(/.test(body)) impure.push(`${where} runs SQL`);
      if (/\bnextId\s*\(/.test(body)) impure.push(`${where} allocates an id`);
    };
    const visit = (node: ts.Node) => {
      if (ts.isFunctionDeclaration(node) && node.name) check(node.name.text, node);
      else if (ts.isMethodDeclaration(node) && ts.isIdentifier(node.name)) check(node.name.text, node);
      else if (
        ts.isVariableDeclaration(node) &&
        ts.isIdentifier(node.name) &&
        node.initializer &&
        (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
      )
        check(node.name.text, node.initializer);
      ts.forEachChild(node, visit);
    };
    visit(source);
    if (/export\s+async\s+function\s+decide/.test(text))
      impure.push(`${rel(f)}: export async function decide…`);
  }
  expect(deciders.length).toBeGreaterThan(30);
  expect(impure).toEqual([]);
});

/** Imports from `from` (type-only ones included) of a path under one of `banned` (a folder, or a file). */
function importsInto(from: string[], banned: string[]): string[] {
  const found: string[] = [];
  for (const f of from)
    for (const target of allImports(f))
      if (banned.some((b) => target === b || target.startsWith(`${b}/`)))
        found.push(`${rel(f)} → ${relative(ROOT, target)}`);
  return found;
}

/** The surfaces: the read API, the tool endpoint, the pages, OAuth, sign-in; and the HTTP kit and the root. */
const SURFACES = ["api", "mcp", "web", "oauth", "auth", "cli"].map((d) => join(SRC, d));
const ROOT_APP = join(SRC, "app.ts");

test("the event log and the projections import no surface, nor the HTTP kit or the root (type imports included)", () => {
  const from = [...files(EVENTS), ...files(PROJECTIONS)];
  expect(from.length).toBeGreaterThan(10);
  expect(importsInto(from, [...SURFACES, join(SRC, "http"), ROOT_APP, join(SRC, "server.ts")])).toEqual([]);
});

test("the contract imports no surface and no HTTP; the HTTP kit imports no surface (type imports included)", () => {
  expect(importsInto(files(join(SRC, "contract")), [...SURFACES, join(SRC, "http"), ROOT_APP])).toEqual([]);
  expect(importsInto(files(join(SRC, "http")), [...SURFACES, ROOT_APP])).toEqual([]);
});

test("one root mounts the surfaces: only src/app.ts imports the read API, only the server imports the root", () => {
  const api = join(SRC, "api");
  const outside = [...graph.keys()].filter((f) => !f.startsWith(`${api}/`));
  const importers = (from: string[], into: string) => [
    ...new Set(importsInto(from, [into]).map((l) => l.split(" → ")[0])),
  ];
  expect(importers(outside, api)).toEqual(["src/app.ts"]);
  expect(importers([...graph.keys()], ROOT_APP)).toEqual(["src/server.ts"]);
});

/** SQL runs in src/db/ (named queries and the operational stores), the event log and the projections. */
const DATA_HOMES = [join(SRC, "db"), EVENTS, PROJECTIONS];
/** Folders that still reach the connection or run SQL of their own, until their statements move to src/db. */
const NOT_YET_MOVED: string[] = [];
/** The one root that opens the database hands its connection to the event store and runs the migrations. */
const CONNECTION_ROOT = "src/services.ts";

test("data in one layer: the connection and SQL only in src/db, events/ and projections/", () => {
  // The connection, a statement run, or a statement's text (kept in a constant and run elsewhere).
  const raw =
    /database\.client|\.execute\(\s*[{"'`]|\.batch\(|\bsql:\s*[`"']|["'`]\s*(?:SELECT\s|INSERT\s+(?:OR\s+\w+\s+)?INTO\s|UPDATE\s+\w+\s+SET\s|DELETE\s+FROM\s)/;
  const outside = files(SRC)
    .filter((f) => !DATA_HOMES.some((d) => f.startsWith(`${d}/`)))
    .map(rel)
    .filter((f) => f !== CONNECTION_ROOT && !NOT_YET_MOVED.some((d) => f === d || f.startsWith(`${d}/`)));
  expect(outside.length).toBeGreaterThan(50);
  expect(outside.filter((f) => raw.test(readFileSync(join(ROOT, f), "utf8")))).toEqual([]);
  // The allow-list only shrinks: each entry still holds SQL of its own.
  const stale = NOT_YET_MOVED.filter(
    (d) =>
      !files(SRC).some(
        (f) => (rel(f) === d || rel(f).startsWith(`${d}/`)) && raw.test(readFileSync(f, "utf8")),
      ),
  );
  expect(stale).toEqual([]);
});

test("writes go through the command runner: outside src/db, no file of src/ opens the event store's write itself", () => {
  // A command runs through events/command.ts (`runCommand`, or `handle` inside a write); operational tables alone
  // are written through `writeTables`.
  const opens = /\bstore\s*\.\s*execute\s*\(/;
  expect(opens.test("await s.store.execute(async ({ later }) => ({ events, result }))")).toBe(true);
  const found = files(SRC)
    .filter((f) => !f.startsWith(`${join(SRC, "db")}/`) && opens.test(readFileSync(f, "utf8")))
    .map(rel);
  expect(found).toEqual([]);
});
