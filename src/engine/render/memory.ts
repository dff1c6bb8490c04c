// The memory of a browser: its process and every process it started (renderers, GPU, network, utility), read
// from /proc. V8's heap flag caps a page's JavaScript heap only; array buffers, images and DOM live outside
// it, so the renderer watches the whole tree. Each process counts its proportional share (PSS) of the pages
// it shares with the others: summed resident sizes would count the browser's mapped binary once per process
// (about 1 GB at rest for Debian's Chromium). Undefined where /proc is not there.
import { existsSync, readFileSync } from "node:fs";

const children = (pid: number): number[] => {
  const out: number[] = [];
  try {
    for (const line of readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(/\s+/))
      if (line) out.push(Number(line));
  } catch {}
  return out;
};

const memoryOf = (pid: number): number => {
  try {
    const m = /^Pss:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, "utf8"));
    if (m) return Number(m[1]) * 1024;
  } catch {}
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

/** Bytes of memory `pid` and its descendants hold, or undefined without /proc. */
export function treeMemory(pid: number): number | undefined {
  if (!existsSync(`/proc/${pid}/status`)) return undefined;
  return processTree(pid).reduce((sum, p) => sum + memoryOf(p), 0);
}
