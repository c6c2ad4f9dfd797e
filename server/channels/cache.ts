/**
 * The in-memory channel index the relay chooses channels from: group → model → priority tiers
 * (highest first) → channels. Built from the enabled channels and their enabled ability rows;
 * rebuilt on the bus topic `channel` and every SYNC_FREQUENCY seconds, so writes made by any
 * gateway process show up here.
 */
import type { Bus } from '../cache/bus.js';
import { followReloads } from '../cache/follow.js';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import type { Channel } from '../db/types.js';
import { enabledAbilities } from './abilities-repository.js';
import { findAllChannels } from './list-repository.js';
import { CHANNEL_ENABLED } from './types.js';

export interface Candidate {
  channel: Channel;
  weight: number;
}

export interface Tier {
  priority: number;
  candidates: Candidate[];
}

interface Index {
  /** Every channel, whatever its status, with its key. */
  byId: Map<number, Channel>;
  tiers: Map<string, Map<string, Tier[]>>;
}

const EMPTY: Index = { byId: new Map(), tiers: new Map() };

/**
 * What routing asks about channels' health (server/channels/health/): which candidates of a tier
 * may take a call and how they share it, and which one serves when every one is cooling down.
 */
export interface RoutingAdvisor {
  choose(candidates: readonly Candidate[], random: () => number): Candidate | undefined;
  fallback(candidates: readonly Candidate[]): Candidate | undefined;
}

/** What the cache reads from: the database, the bus of changes and the sync period; health when routing heeds it. */
type CacheContext = { db: Db; bus: Bus; config: Pick<Config, 'syncFrequency'>; health?: RoutingAdvisor };

/** Weighted random choice; when every weight is 0 each candidate is equally likely. */
function weighted(candidates: Candidate[], random: () => number): Candidate | undefined {
  const total = candidates.reduce((sum, c) => sum + Math.max(0, c.weight), 0);
  if (total === 0) return candidates[Math.floor(random() * candidates.length)];
  let point = random() * total;
  for (const c of candidates) {
    point -= Math.max(0, c.weight);
    if (point < 0) return c;
  }
  return candidates.findLast((c) => c.weight > 0);
}

export class ChannelCache {
  private index: Index = EMPTY;
  /** Number of the latest reload started, and of the one whose result is in use. */
  private started = 0;
  private applied = 0;
  /** Stops following changes (set by `follow`). */
  private stop: () => void = () => undefined;

  constructor(
    private readonly ctx: CacheContext,
    private readonly random: () => number = Math.random,
  ) {}

  /** Reads the channels and abilities again. A reload that started later always wins. */
  async reload(): Promise<void> {
    const run = ++this.started;
    const [channels, abilities] = await Promise.all([findAllChannels(this.ctx.db), enabledAbilities(this.ctx.db)]);
    if (run < this.applied) return;
    const byId = new Map(channels.map((c) => [c.id, c]));
    const grouped = new Map<string, Map<string, Map<number, Candidate[]>>>();
    for (const a of abilities) {
      const channel = byId.get(a.channel_id);
      if (!channel || channel.status !== CHANNEL_ENABLED) continue;
      let models = grouped.get(a.group);
      if (!models) grouped.set(a.group, (models = new Map()));
      let priorities = models.get(a.model);
      if (!priorities) models.set(a.model, (priorities = new Map()));
      const list = priorities.get(a.priority) ?? [];
      list.push({ channel, weight: a.weight });
      priorities.set(a.priority, list);
    }
    const tiers = new Map<string, Map<string, Tier[]>>();
    for (const [group, models] of grouped) {
      const byModel = new Map<string, Tier[]>();
      for (const [model, priorities] of models) {
        const list = [...priorities]
          .sort(([a], [b]) => b - a)
          .map(([priority, candidates]) => ({ priority, candidates: candidates.sort((x, y) => x.channel.id - y.channel.id) }));
        byModel.set(model, list);
      }
      tiers.set(group, byModel);
    }
    this.applied = run;
    this.index = { byId, tiers };
  }

  /** The priority tiers (highest first) of enabled channels serving `model` in `group`. */
  candidates(group: string, model: string): readonly Tier[] {
    return this.index.tiers.get(group)?.get(model) ?? [];
  }

  /**
   * Picks a channel for attempt `retryIndex` (0 first): inside tier `retryIndex`, or the last
   * tier when there are fewer, at random in proportion to weight. Channels in `exclude` (already
   * tried) are skipped; if a whole tier is excluded the next lower tier is used, then higher ones.
   * Channels cooling down are skipped like tried ones; when nothing else is left, one of them serves.
   */
  pick(group: string, model: string, retryIndex = 0, exclude?: ReadonlySet<number>): Channel | undefined {
    const tiers = this.candidates(group, model);
    if (tiers.length === 0) return undefined;
    const start = Math.min(Math.max(0, retryIndex), tiers.length - 1);
    // The first attempt with nothing excluded, nearly every call's, copies nothing.
    const order = start === 0 ? tiers : [...tiers.slice(start), ...tiers.slice(0, start).reverse()];
    const { health } = this.ctx;
    const untried = (tier: Tier) =>
      exclude && exclude.size > 0 ? tier.candidates.filter((c) => !exclude.has(c.channel.id)) : tier.candidates;
    for (const tier of order) {
      const open = untried(tier);
      const chosen = health ? health.choose(open, this.random) : weighted(open, this.random);
      if (chosen) return chosen.channel;
    }
    return health?.fallback(order.flatMap(untried))?.channel;
  }

  /** The full channel (key included, any status): server-internal. */
  get(id: number): Channel | undefined {
    return this.index.byId.get(id);
  }

  /** The groups with at least one enabled channel, sorted. */
  groups(): string[] {
    return [...this.index.tiers.keys()].sort();
  }

  /** The models `group` can reach through at least one enabled channel, sorted. */
  models(group: string): string[] {
    return [...(this.index.tiers.get(group)?.keys() ?? [])].sort();
  }

  /** Follows bus invalidations and reloads every SYNC_FREQUENCY seconds until `close()`. */
  follow(): void {
    this.stop = followReloads(this.ctx.bus, ['channel'], this.ctx.config.syncFrequency, () => this.reload());
  }

  close(): void {
    this.stop();
  }
}

/** Loads the channel index and keeps it current. The caller closes it at shutdown. */
export async function createChannelCache(ctx: CacheContext): Promise<ChannelCache> {
  const cache = new ChannelCache(ctx);
  await cache.reload();
  cache.follow();
  return cache;
}
