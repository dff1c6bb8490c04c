// `rivals compact [--days N] [--vacuum]` (docs/operations.md): compaction now (engine/compaction/compact.ts),
// printing what went and the database's size before and after.
import { loadConfig } from "../config.ts";
import { COMPACT_DAYS, compact } from "../engine/compaction/compact.ts";
import { openServices } from "../services.ts";
import { flags, print, UsageError } from "./args.ts";

export async function compactCommand(argv: string[]): Promise<number> {
  const { values } = flags(argv, { days: { type: "string" }, vacuum: { type: "boolean" } });
  const days = values.days === undefined ? COMPACT_DAYS : Number(values.days);
  if (!Number.isInteger(days) || days < 1)
    throw new UsageError("--days must be a whole number of days, 1 or more");
  const config = loadConfig();
  // sqld answers VACUUM (and the auto_vacuum pragmas) with "unsupported statement": refused before anything is
  // compacted, rather than failing after it.
  if (values.vacuum && !config.dbUrl.startsWith("file:"))
    throw new UsageError(
      "--vacuum rewrites a database file, and a libSQL server does not run VACUUM: compact without it (later writes reuse the freed pages)",
    );
  const s = await openServices(config);
  try {
    print(await compact(s, days, { vacuum: values.vacuum === true }));
    return 0;
  } finally {
    s.close();
  }
}
