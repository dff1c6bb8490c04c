// Who issues a command run from the command line or the server's own setup (an org created, a key made, a
// brief reviewed): the operator of the instance, not a member of a workspace.
import type { Actor, Issuer } from "../../events/command.ts";

export const OPERATOR: Issuer<Actor> = { caller: { actor: "operator" } };
