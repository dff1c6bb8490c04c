// Every classification rule's declaration, collected rather than listed: the general rules classify() routes,
// then each source kind's own rules in the registry's order (sources/kinds/index.ts). The rules table of
// docs/engine/classify.md is generated from it (scripts/rules-table.ts).
import { SOURCE_KINDS } from "../sources/kinds/index.ts";
import { GENERAL_RULES } from "./classify.ts";
import type { RuleInfo } from "./rule.ts";

export const RULES: readonly RuleInfo[] = [
  ...GENERAL_RULES,
  ...SOURCE_KINDS.flatMap((k) => (k.rules ?? []).map((r) => r.info)),
];
