// A real `rivals serve` process on a free loopback port, as an operator starts it, ready once /healthz answers.
import { resolve } from "node:path";
import { freePort } from "../e2e/harness.ts";

const root = resolve(import.meta.dir, "..", "..");

export interface ServeProcess {
  base: string;
  proc: ReturnType<typeof Bun.spawn>;
  /** What it wrote on stdout and stderr so far (for a failure's message, or a line the test waits for). */
  out(): string;
}

/** Starts `rivals serve` with `env` over the test's own environment; throws with what it said if it does not
 * answer /healthz within 30 s or exits first. */
export async function startServe(env: Record<string, string>): Promise<ServeProcess> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const proc = Bun.spawn([process.execPath, "src/main.ts", "serve"], {
    cwd: root,
    env: { ...process.env, ...env, PORT: String(port), HOST: "127.0.0.1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  let said = "";
  for (const stream of [proc.stdout, proc.stderr])
    void (async () => {
      const reader = (stream as ReadableStream<Uint8Array>).getReader();
      const text = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        said += text.decode(value, { stream: true });
      }
    })().catch(() => undefined);
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return { base, proc, out: () => said };
    } catch {}
    if (i > 600 || proc.exitCode !== null) throw new Error(`rivals serve did not start:\n${said}`);
    await Bun.sleep(50);
  }
}
