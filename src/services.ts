// Wires the store, the writer and the clock together; every surface (REST, tools, pages, CLI) takes one of these.
import { EventStore } from "../events/store.ts";
import { projectAll } from "../projections/index.ts";
import { type Clock, systemClock } from "./clock.ts";
import type { Config } from "./config.ts";
import { type Database, openDatabase } from "./db/client.ts";
import { migrate } from "./db/migrate.ts";
import "./domain/kinds.ts";
import { closeRenderer } from "./engine/render/index.ts";

export interface Services {
  config: Config;
  database: Database;
  store: EventStore;
  clock: Clock;
  close(): void;
}

export async function openServices(config: Config, clock: Clock = systemClock): Promise<Services> {
  const database = await openDatabase(config.dbUrl);
  await migrate(database.client);
  const store = new EventStore(database.client, projectAll, clock);
  return {
    config,
    database,
    store,
    clock,
    close: () => {
      void closeRenderer(config);
      database.close();
    },
  };
}
