// `rivals digests generate --org S --type daily_digest|weekly_tldr [--end ISO]`: the digest of the period (UTC
// day or ISO week) in which the instant just before --end falls (default: the last complete one). Prints its
// id and slug; a day without signals writes no daily digest and says so (exit 0).
import { loadConfig } from "../config.ts";
import { DIGEST_TYPES, type DigestType } from "../domain/digestPeriods.ts";
import { requireOrg } from "../domain/state.ts";
import { generateDigest } from "../engine/digests/generate.ts";
import { openServices } from "../services.ts";
import { flags, print, required, UsageError } from "./args.ts";

export async function digestsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub !== "generate")
    throw new UsageError(
      "usage: rivals digests generate --org S --type daily_digest|weekly_tldr [--end ISO]",
    );
  const { values } = flags(rest, {
    org: { type: "string" },
    type: { type: "string" },
    end: { type: "string" },
  });
  const slug = required(values.org, "org");
  const type = required(values.type, "type");
  if (!DIGEST_TYPES.includes(type as DigestType))
    throw new UsageError(`--type must be one of ${DIGEST_TYPES.join(", ")}`);
  let end: Date | undefined;
  if (values.end !== undefined) {
    end = new Date(values.end);
    if (!/^\d{4}-\d{2}-\d{2}/.test(values.end) || Number.isNaN(end.getTime()))
      throw new UsageError("--end must be an ISO 8601 time, e.g. 2026-11-23T00:00:00Z");
  }
  const s = await openServices(loadConfig());
  try {
    const org = await requireOrg(s.database, slug);
    print(await generateDigest(s, org.id, type as DigestType, { end }));
    return 0;
  } finally {
    s.close();
  }
}
