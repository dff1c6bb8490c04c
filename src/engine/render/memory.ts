// The resident memory of a browser: its process and every process it started (renderers, GPU, network,
// utility), read from /proc. V8's heap flag caps a page's JavaScript heap only; array buffers, images and
// DOM live outside it, so the renderer watches the whole tree. Undefined where /proc is not there.
import { existsSync, readFileSync } from "node:fs";

const children = (pid: number): number[] => {
  const out: number[] = [];
  try {
    for (const line of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/))
      if (line) out.push(Number(line));
  } catch {}
  return out;
};

const rssOf = (pid: number): number => {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) * 1024 : 0;
  } catch {
    return 0;
  }
};

/** The process `pid` and its descendants, `pid` first. */
export function processTree(pid: number): number[] {
  const seen: number[] = [];
  const todo = [pid];
  while (todo.length && seen.length < 1000) {
    const p = todo.shift()!;
    seen.push(p);
    todo.push(...children(p));
  }
  return seen;
}

/** Bytes resident in `pid` and its descendants, or undefined without /proc. */
export function treeRss(pid: number): number | undefined {
  if (!existsSync(`/proc/${pid}/status`)) return undefined;
  return processTree(pid).reduce((sum, p) => sum + rssOf(p), 0);
}
