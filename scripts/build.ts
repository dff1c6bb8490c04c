// `npm run build`: writes dist/rivals, one executable made by `bun build --compile`, that runs from a
// directory without node_modules.
//
// Known trap (bun issue 18909): libsql's index.js picks its native module at run time with
// `require(\`@libsql/${target}\`)`, which the bundler cannot follow, so the .node file would be left
// out and the binary would fail on its first query. The plugin below rewrites that dynamic require
// into a static require of the platform package for this build's target, so Bun embeds the .node
// file in the executable. Migrations and the demo data are text imports and are embedded already.
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import type { BunPlugin } from "bun";

const root = join(import.meta.dir, "..");
const outfile = join(root, "dist", "rivals");

/** The `@libsql/<target>` package for this machine (the build targets the machine it runs on). */
function libsqlPlatformPackage(): string {
  const arch = process.arch;
  switch (process.platform) {
    case "linux": {
      // glibc reports a runtime version in the process report; musl does not.
      const report = process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined;
      const libc = report?.header?.glibcVersionRuntime ? "gnu" : "musl";
      if (arch === "arm") return `@libsql/linux-arm-${libc === "gnu" ? "gnueabihf" : "musleabihf"}`;
      return `@libsql/linux-${arch}-${libc}`;
    }
    case "darwin":
      return `@libsql/darwin-${arch}`;
    case "win32":
      return `@libsql/win32-${arch}-msvc`;
    default:
      throw new Error(`no libsql build for ${process.platform}-${arch}`);
  }
}

/** libsql/index.js: return require(`@libsql/${target}`); */
const DYNAMIC_REQUIRE = /require\(`@libsql\/\$\{target\}`\)/;

function libsqlNativePlugin(pkg: string): BunPlugin {
  return {
    name: "libsql-static-native",
    setup(build) {
      build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, ({ path }) => {
        const source = readFileSync(path, "utf8");
        if (!DYNAMIC_REQUIRE.test(source))
          throw new Error(
            `${path}: the dynamic require of the native module was not found; check libsql's version`,
          );
        return { contents: source.replace(DYNAMIC_REQUIRE, `require(${JSON.stringify(pkg)})`), loader: "js" };
      });
    },
  };
}

const pkg = libsqlPlatformPackage();
if (!existsSync(join(root, "node_modules", pkg, "package.json")))
  throw new Error(`${pkg} is not installed; run npm install on this platform first`);

rmSync(outfile, { force: true });
mkdirSync(dirname(outfile), { recursive: true });
const started = performance.now();
const result = await Bun.build({
  // Workers are separate entry points: src/engine/workers/extract.ts starts them with
  // new Worker(new URL("./extractWorker.ts", import.meta.url)), which the binary resolves to the embedded file.
  entrypoints: [join(root, "src", "main.ts"), join(root, "src", "engine", "workers", "extractWorker.ts")],
  compile: { outfile },
  minify: true,
  plugins: [libsqlNativePlugin(pkg)],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
if (!existsSync(outfile)) {
  console.error(`build reported success but ${outfile} is missing`);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.log(
  `built ${outfile} (${(size / 1e6).toFixed(1)} MB, libsql native: ${pkg}) in ${Math.round(performance.now() - started)} ms`,
);
