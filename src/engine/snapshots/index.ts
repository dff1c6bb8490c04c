// The snapshot store (docs/engine/compare.md).
import type { Services } from "../../services.ts";
import type { Snapshot } from "../compare/types.ts";
import { SnapshotStore } from "./store.ts";

export { type PlanSeries, type PricePoint, planPriceHistory } from "./history.ts";
export { type Comparison, compareWithHistory, readHistory, type StoredHistory } from "./observe.ts";
export * from "./store.ts";

const stores = new WeakMap<Services, SnapshotStore>();

/** The installation's snapshot store, on the services' database and writer. */
export function snapshotStoreFor(services: Services): SnapshotStore {
  let s = stores.get(services);
  if (!s) {
    s = new SnapshotStore({
      database: services.database,
      store: services.store,
      clock: services.clock,
      kept: services.config.snapshotsKept,
    });
    stores.set(services, s);
  }
  return s;
}

export type { Snapshot };
