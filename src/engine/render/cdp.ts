// A small Chrome DevTools Protocol client over the pipe Chromium opens with --remote-debugging-pipe (it reads
// commands on its fd 3 and writes answers and events on its fd 4, each message ended by a NUL byte), with
// flattened target sessions: commands are answered by id, events go to the listeners of their session. No
// TCP port is opened, so nothing else on the machine can drive the browser, and the browser exits when the
// pipe closes (this process ended, however it ended). The renderer needs a dozen commands; a protocol library
// (playwright-core) does not survive `bun build --compile`'s bundling as this file does (docs/engine/render.md).
import type { Readable, Writable } from "node:stream";

type Listener = (params: Record<string, unknown>) => void;

export class CdpError extends Error {}

export class Cdp {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private listeners = new Map<string, Set<Listener>>();
  private closedWith?: Error;
  private onClose: (() => void)[] = [];
  private buffered: Buffer[] = [];

  /** `out`: the browser's fd 3 (commands); `in`: its fd 4 (answers and events). */
  constructor(
    private out: Writable,
    input: Readable,
  ) {
    input.on("data", (chunk: Buffer) => this.read(chunk));
    input.on("close", () => this.fail(new CdpError("the browser connection closed")));
    input.on("error", () => this.fail(new CdpError("the browser connection failed")));
    out.on("error", () => this.fail(new CdpError("the browser connection failed")));
  }

  get closed(): boolean {
    return this.closedWith !== undefined;
  }

  whenClosed(fn: () => void): void {
    if (this.closed) fn();
    else this.onClose.push(fn);
  }

  send<T = Record<string, unknown>>(method: string, params: object = {}, sessionId?: string): Promise<T> {
    if (this.closedWith) return Promise.reject(this.closedWith);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.out.write(`${JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) })}\0`);
    });
  }

  /** Listens to `method` events of one session (or of the browser, without one); returns the unsubscribe. */
  on(method: string, sessionId: string | undefined, fn: Listener): () => void {
    const key = `${sessionId ?? ""}|${method}`;
    let set = this.listeners.get(key);
    if (!set) {
      set = new Set();
      this.listeners.set(key, set);
    }
    set.add(fn);
    return () => set.delete(fn);
  }

  close(): void {
    this.out.end();
    this.fail(new CdpError("the browser connection closed"));
  }

  private read(chunk: Buffer): void {
    let start = 0;
    for (let end = chunk.indexOf(0); end !== -1; end = chunk.indexOf(0, start)) {
      this.buffered.push(chunk.subarray(start, end));
      const text = Buffer.concat(this.buffered).toString("utf8");
      this.buffered = [];
      start = end + 1;
      this.receive(text);
    }
    if (start < chunk.length) this.buffered.push(chunk.subarray(start));
  }

  private receive(text: string): void {
    let msg: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      sessionId?: string;
      result?: unknown;
      error?: { message: string };
    };
    try {
      msg = JSON.parse(text);
    } catch {
      return;
    }
    if (msg.id !== undefined) {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (msg.error) p.reject(new CdpError(msg.error.message));
      else p.resolve(msg.result ?? {});
      return;
    }
    if (msg.method)
      for (const fn of this.listeners.get(`${msg.sessionId ?? ""}|${msg.method}`) ?? []) fn(msg.params ?? {});
  }

  private fail(e: Error): void {
    if (this.closedWith) return;
    this.closedWith = e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    for (const fn of this.onClose.splice(0)) fn();
  }
}
