// A small Chrome DevTools Protocol client over one WebSocket (Bun's own), with flattened target sessions:
// commands are answered by id, events go to the listeners of their session. The renderer needs a dozen
// commands; a protocol library (playwright-core) does not survive `bun build --compile`'s bundling as this
// file does (docs/engine.md, "Pages that need a browser").

type Listener = (params: Record<string, unknown>) => void;

export class CdpError extends Error {}

export class Cdp {
  private nextId = 1;
  private pending = new Map<number, { resolve: (v: any) => void; reject: (e: Error) => void }>();
  private listeners = new Map<string, Set<Listener>>();
  private closedWith?: Error;
  private onClose: (() => void)[] = [];

  private constructor(private ws: WebSocket) {
    ws.addEventListener("message", (m) => this.receive(String(m.data)));
    ws.addEventListener("close", () => this.fail(new CdpError("the browser connection closed")));
    ws.addEventListener("error", () => this.fail(new CdpError("the browser connection failed")));
  }

  static connect(url: string, timeoutMs: number): Promise<Cdp> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url);
      const timer = setTimeout(() => {
        ws.close();
        reject(new CdpError(`no DevTools connection to ${url} within ${timeoutMs} ms`));
      }, timeoutMs);
      ws.addEventListener("open", () => {
        clearTimeout(timer);
        resolve(new Cdp(ws));
      });
      ws.addEventListener("error", () => {
        clearTimeout(timer);
        reject(new CdpError(`could not connect to the browser at ${url}`));
      });
    });
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
      this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
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
    this.ws.close();
    this.fail(new CdpError("the browser connection closed"));
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
