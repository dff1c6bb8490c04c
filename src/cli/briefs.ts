// `rivals briefs held | publish --id N | reject --id N`: an operator's review of the free briefs that
// RIVALS_FREE_BRIEF_REVIEW holds (docs/operations.md "Reviewing free briefs"). `held` prints one JSON line per
// brief waiting (its text, findings and sources, read before deciding); publish serves it in the library and
// to the public tools, and the server then emails it to requesters who confirmed their address; reject never serves it.
import { runCommand } from "../../events/command.ts";
import { loadConfig } from "../config.ts";
import { heldBriefs } from "../db/queries/briefReview.ts";
import { type ReviewDecision, reviewPublicBrief } from "../domain/briefReview.ts";
import { openServices } from "../services.ts";
import { flags, print, required, UsageError } from "./args.ts";

const USAGE = "usage: rivals briefs held | publish --id ID | reject --id ID";

export async function briefsCommand(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { values } = flags(rest, { id: { type: "string" } });
  if (sub !== "held" && sub !== "publish" && sub !== "reject") throw new UsageError(USAGE);
  const s = await openServices(loadConfig());
  try {
    if (sub === "held") {
      for (const b of await heldBriefs(s.database)) print(b);
      return 0;
    }
    const raw = required(values.id, "id");
    if (!/^\d{1,15}$/.test(raw))
      throw new UsageError("--id must be a brief's id, as `rivals briefs held` prints it");
    const decision: ReviewDecision = sub === "publish" ? "published" : "rejected";
    await runCommand(
      s.store,
      reviewPublicBrief,
      { id: Number(raw), decision },
      { caller: { actor: "operator" }, metadata: { source: "cli" } },
    );
    // The running server's next sweep (within a minute) emails the requesters who confirmed their address.
    print({ id: Number(raw), review: decision });
    return 0;
  } finally {
    s.close();
  }
}
