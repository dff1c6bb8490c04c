// Which running instance holds a lease (a scheduled cycle's slot, a cycle's heartbeat, a research run): one name
// per opened Services (host:pid:random), so two instances on one database (sqld) — or two Services in one process
// — never take each other's work for their own.
import { hostname } from "node:os";
import type { Services } from "../services.ts";

const names = new WeakMap<Services, string>();

export function instanceOf(s: Services): string {
  let name = names.get(s);
  if (!name) {
    name = `${hostname()}:${process.pid}:${crypto.randomUUID().slice(0, 8)}`;
    names.set(s, name);
  }
  return name;
}
