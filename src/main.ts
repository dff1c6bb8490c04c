#!/usr/bin/env bun
import { UsageError } from "./cli/args.ts";
import { run } from "./cli/commands.ts";
import { DomainError } from "./domain/errors.ts";
import { InvalidInput } from "./domain/validate.ts";

try {
  const code = await run(process.argv.slice(2));
  if (code >= 0) process.exit(code);
} catch (e) {
  if (e instanceof UsageError || e instanceof InvalidInput || e instanceof DomainError) {
    console.error(`rivals: ${e.message}`);
    if (e instanceof UsageError) console.error("Run 'rivals help' for the commands.");
    process.exit(2);
  }
  console.error(`rivals: ${(e as Error).message ?? e}`);
  process.exit(1);
}
