import { parseArgs } from "node:util";

export class UsageError extends Error {}

type Opts = Record<string, { type: "string" | "boolean"; short?: string }>;

/** Parses flags strictly: an unknown flag is a usage error, not silently ignored. */
export function flags<O extends Opts>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message);
  }
}

export function required(v: string | boolean | undefined, name: string): string {
  if (typeof v !== "string" || v === "") throw new UsageError(`--${name} is required`);
  return v;
}

export function print(obj: unknown): void {
  process.stdout.write(`${JSON.stringify(obj)}\n`);
}
