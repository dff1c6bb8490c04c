// What `serve --demo` / `rivals demo` print about the demo workspace (src/demo/workspace.ts loads it).
import { type DemoStart, RESET_COMMAND, RESET_COMMAND_NPM } from "../demo/workspace.ts";

/** The lines `serve --demo` prints to the operator's console (the only place the secrets appear). */
export function demoBanner(d: DemoStart): string[] {
  const lines = [
    d.reused
      ? `Demo workspace "${d.org}" reused (already loaded in this database).`
      : `Demo workspace "${d.org}" loaded.`,
    `  API key (shown once): ${d.api_key}`,
    `  Try: curl -H "Authorization: Bearer ${d.api_key}" ${d.base_url}/api/v1/competitors`,
    `  Sign in: ${d.signin_url}`,
    `    email:    ${d.email}`,
  ];
  if (d.password !== null) lines.push(`    password: ${d.password}   (shown once; only its hash is stored)`);
  else
    lines.push(
      "    password: the one printed at the first start (only its hash is stored, so it is not shown again).",
      `    Lost it? ${RESET_COMMAND_NPM} (built binary: ${RESET_COMMAND}) prints a new one.`,
    );
  return lines;
}
