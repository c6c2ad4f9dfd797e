/**
 * The model and vendor tables as last read, for the public price list: kept until a write through
 * any process (bus topic `catalog`) or SYNC_FREQUENCY seconds, so /api/pricing does no database
 * work per request. One cache per gateway (keyed by its context).
 */
import type { Bus } from '../cache/bus.js';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { makeSnapshot, type Snapshot } from './catalogue.js';
import { allModels } from './models-repository.js';
import { allVendors } from './vendors-repository.js';

export const CATALOG_TOPIC = 'catalog';

type CatalogueContext = { db: Db; bus: Bus; config: Pick<Config, 'syncFrequency'> };

export class CatalogueCache {
  private pending: Promise<Snapshot> | null = null;
  private loadedAt = 0;

  constructor(private readonly ctx: CatalogueContext) {
    ctx.bus.on(CATALOG_TOPIC, () => this.forget());
  }

  /** After a write: the next request reads the tables again (one under way is not kept). */
  forget(): void {
    this.pending = null;
  }

  snapshot(): Promise<Snapshot> {
    const fresh = Date.now() - this.loadedAt < this.ctx.config.syncFrequency * 1000;
    if (this.pending && fresh) return this.pending;
    const load = Promise.all([allModels(this.ctx.db), allVendors(this.ctx.db)]).then(([models, vendors]) =>
      makeSnapshot(models, vendors),
    );
    this.pending = load;
    this.loadedAt = Date.now();
    load.then(
      () => undefined,
      () => {
        // A failed read is not kept: the next request tries again.
        if (this.pending === load) this.pending = null;
      },
    );
    return load;
  }
}

const caches = new WeakMap<CatalogueContext, CatalogueCache>();

export function catalogueOf(ctx: CatalogueContext): CatalogueCache {
  let cache = caches.get(ctx);
  if (!cache) {
    cache = new CatalogueCache(ctx);
    caches.set(ctx, cache);
  }
  return cache;
}
