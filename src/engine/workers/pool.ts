// A small pool of Bun Workers for CPU work off the request path, so a cycle never stalls the API
// (docs/decisions.md). Tasks queue FIFO; each worker runs one task at a time; workers are started on first use and
// unref'd, so an idle pool never keeps the process alive. Its size is the configuration's (RIVALS_WORKERS,
// config.ts). A task may ask its caller one thing while it runs (`ask` in serveTasks, `answer` in run): what only
// the main thread can read (the database), asked only when the task finds it needs it; the worker stays the task's
// until it is done. A worker's memory grows with the tasks it has run (what its allocator keeps after collections,
// some 60-100 MB over a cycle of extractions) and only its end gives that back: the workers of a pool idle for
// `idleMs` end, and the next task starts a new one. (Ending a busy worker every hundred tasks as well cost a third
// more CPU per task, from its cold start, and held the peak no lower.)

interface Task {
  id: number;
  input: unknown;
  resolve(v: unknown): void;
  reject(e: unknown): void;
  answer?: (question: unknown) => Promise<unknown>;
}

type Reply =
  | { id: number; ok: true; output: unknown }
  | { id: number; ok: false; error: string }
  | { id: number; ask: unknown };
/** What a worker's task is told back when it asks. */
type Answer = { id: number; answer: unknown } | { id: number; answerError: string };

export class WorkerPool<I, O, Q = never, A = never> {
  private idle: Worker[] = [];
  private busy = new Map<Worker, Task>();
  private queue: Task[] = [];
  private started = 0;
  private nextId = 1;
  private closed = false;
  /** Callers waiting for the pool's backlog to fall below their bound (room()). */
  private roomWaiters: { bound: number; resolve(): void }[] = [];
  private idleTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private spec: string | URL,
    readonly size: number,
    private opts: { idleMs?: number; smol?: boolean } = {},
  ) {}

  /** Runs a task; `answer` answers what it asks while it runs (a task that asks without one fails). */
  run(input: I, answer?: (question: Q) => Promise<A>): Promise<O> {
    if (this.closed) return Promise.reject(new Error("worker pool is closed"));
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    return new Promise<O>((resolve, reject) => {
      this.queue.push({
        id: this.nextId++,
        input,
        resolve: resolve as Task["resolve"],
        reject,
        ...(answer ? { answer: answer as Task["answer"] } : {}),
      });
      this.pump();
    });
  }

  /** Workers started and not ended. */
  get workers(): number {
    return this.started;
  }

  /** Tasks waiting or running. */
  get pending(): number {
    return this.queue.length + this.busy.size;
  }

  /** Resolves once fewer than `bound` tasks are waiting or running: a caller about to read a body for the pool
   * waits here, so the bodies held in memory for it stay bounded when the pool is the slower side. */
  room(bound: number): Promise<void> {
    if (this.closed || this.pending < bound) return Promise.resolve();
    return new Promise((resolve) => this.roomWaiters.push({ bound, resolve }));
  }

  private wakeRoom(): void {
    if (this.roomWaiters.length === 0) return;
    const pending = this.pending;
    const still: typeof this.roomWaiters = [];
    for (const w of this.roomWaiters) {
      if (this.closed || pending < w.bound) w.resolve();
      else still.push(w);
    }
    this.roomWaiters = still;
  }

  private spawn(): Worker {
    const w = new Worker(this.spec, { smol: this.opts.smol });
    (w as unknown as { unref(): void }).unref();
    w.addEventListener("message", (ev: MessageEvent<Reply>) => {
      const task = this.busy.get(w);
      if (!task || ev.data.id !== task.id) return;
      if ("ask" in ev.data) {
        const id = task.id;
        const told = (m: Answer) => {
          if (this.busy.get(w) === task) w.postMessage(m);
        };
        const question = ev.data.ask;
        Promise.resolve()
          .then(() => {
            if (!task.answer) throw new Error("the task asked, and nothing answers it");
            return task.answer(question);
          })
          .then(
            (answer) => told({ id, answer }),
            (e) => told({ id, answerError: String((e as Error)?.message ?? e) }),
          );
        return;
      }
      this.busy.delete(w);
      if (ev.data.ok) task.resolve(ev.data.output);
      else task.reject(new Error(ev.data.error));
      this.idle.push(w);
      this.pump();
      this.wakeRoom();
      this.whenIdle();
    });
    w.addEventListener("error", (ev: ErrorEvent) => {
      // A crashed worker fails its task and is replaced on demand.
      const task = this.busy.get(w);
      this.busy.delete(w);
      this.retire(w);
      task?.reject(new Error(`worker failed: ${ev.message}`));
      this.pump();
      this.wakeRoom();
    });
    this.started++;
    return w;
  }

  private retire(w: Worker): void {
    this.started--;
    w.terminate();
  }

  /** With nothing queued or running, the idle workers end after idleMs (a timer that keeps no process alive). */
  private whenIdle(): void {
    if (!this.opts.idleMs || this.pending > 0 || this.idle.length === 0 || this.idleTimer) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.pending > 0) return;
      for (const w of this.idle) this.retire(w);
      this.idle = [];
    }, this.opts.idleMs);
    (this.idleTimer as unknown as { unref?(): void }).unref?.();
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let w = this.idle.pop();
      if (!w) {
        if (this.started >= this.size) return;
        w = this.spawn();
      }
      const task = this.queue.shift()!;
      this.busy.set(w, task);
      w.postMessage({ id: task.id, input: task.input });
    }
  }

  close(): void {
    this.closed = true;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    for (const w of [...this.idle, ...this.busy.keys()]) w.terminate();
    for (const t of [...this.queue, ...this.busy.values()]) t.reject(new Error("worker pool closed"));
    this.idle = [];
    this.busy.clear();
    this.queue = [];
    this.wakeRoom();
  }
}

/** The worker side: answers each task with `handle(input, ask)`; `ask(question)` resolves with what the task's
 * caller answers (rejects when it could not). */
export function serveTasks<I, O, Q = never, A = never>(
  handle: (input: I, ask: (question: Q) => Promise<A>) => O | Promise<O>,
): void {
  const scope = globalThis as unknown as {
    onmessage: ((ev: MessageEvent<{ id: number; input: I } | Answer>) => void) | null;
    postMessage(m: Reply): void;
  };
  /** The running task's question waiting for its answer. */
  let asked: { id: number; resolve(a: A): void; reject(e: Error): void } | undefined;
  scope.onmessage = async (ev) => {
    const m = ev.data;
    if ("answer" in m || "answerError" in m) {
      const q = asked;
      if (q?.id !== m.id) return;
      asked = undefined;
      if ("answer" in m) q.resolve(m.answer as A);
      else q.reject(new Error(m.answerError));
      return;
    }
    const { id, input } = m;
    const ask = (question: Q) =>
      new Promise<A>((resolve, reject) => {
        asked = { id, resolve, reject };
        scope.postMessage({ id, ask: question });
      });
    try {
      scope.postMessage({ id, ok: true, output: await handle(input, ask) });
    } catch (e) {
      scope.postMessage({ id, ok: false, error: String((e as Error)?.message ?? e) });
    }
  };
}
