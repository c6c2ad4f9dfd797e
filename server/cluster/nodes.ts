/**
 * This process among the gateway processes sharing the database: a row in `nodes` refreshed by a
 * heartbeat, and the watch over the others. A process is taken for dead when its heartbeat has not
 * moved for `timeoutMs` of this process's own clock (clock skew between hosts does not matter), or at
 * once when it ran beside this process and is gone (server/cluster/process-identity.ts): a restart
 * after a crash resolves the crashed process's holds on start. The holds of dead processes, and this process's own holds that no call
 * owns any more, are resolved through server/billing/recovery.ts.
 *
 * Who resolves another process's holds: a process seen gone on this very host (its pid no longer
 * runs) is certainly dead, and any process resolves its holds; a silent heartbeat, or holds of a
 * process no longer registered, is a judgement, made only by the holder of the jobs lease
 * (`leads`), so that one process decides and a process cut off from the others does not.
 * Resolving is safe to race either way: each hold row is taken by one transaction only.
 */
import { hostname } from 'node:os';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { holdingNodes, holdsAny, recoverNode, type Recovered } from '../billing/recovery.js';
import { beat, deleteNode, insertNode, listNodes } from './repository.js';
import { SELF, knownGone } from './process-identity.js';

export interface NodeWatchOptions {
  db: Db;
  kind: DbKind;
  /** This process's node id (the holds' `node`). */
  id: string;
  /** Whether a hold id of this process is still owned by a call. */
  isLive: (holdId: string) => boolean;
  timeoutMs: number;
  /** Whether this process holds the jobs lease (server/cluster/leader.ts). */
  leads: () => boolean;
  onRecovered: (recovered: Recovered[]) => void;
  onError: (err: unknown) => void;
}

interface Seen {
  seenAt: number;
  /** When this process last saw `seenAt` change (its own clock). */
  changedAt: number;
}

export class NodeWatch {
  private readonly seen = new Map<string, Seen>();
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;

  constructor(private readonly o: NodeWatchOptions) {}

  /** Registers this process and resolves what dead processes left, before the first call. */
  async start(): Promise<void> {
    await this.register(Date.now());
    await this.tick();
    const every = Math.max(500, Math.floor(this.o.timeoutMs / 6));
    this.timer = setInterval(() => void this.tick(), every);
    this.timer.unref();
  }

  /** One heartbeat and one look at the others (never two at once). */
  tick(): Promise<void> {
    this.running ??= this.beatAndWatch()
      .catch((err: unknown) => this.o.onError(err))
      .finally(() => {
        this.running = null;
      });
    return this.running;
  }

  /** Stops the heartbeat; this process's row goes once its own holds are resolved. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
    const recovered = await recoverNode(this.o.db, this.o.kind, this.o.id, this.o.isLive);
    if (recovered.length > 0) this.o.onRecovered(recovered);
    if (!(await holdsAny(this.o.db, this.o.id))) await deleteNode(this.o.db, this.o.id);
  }

  private async register(now: number): Promise<void> {
    await insertNode(this.o.db, {
      id: this.o.id,
      host: hostname(),
      scope: SELF.scope,
      pid: SELF.pid,
      pid_start: SELF.pidStart,
      started_at: now,
      seen_at: now,
    });
  }

  private async beatAndWatch(): Promise<void> {
    const { db, id } = this.o;
    const now = Date.now();
    if (!(await beat(db, id, now))) {
      // Another process took this one for dead and removed its row: it is back.
      await this.register(now);
    }
    const nodes = await listNodes(db);
    const holders = await holdingNodes(db);
    const known = new Map(nodes.map((n) => [n.id, n]));
    const dead = new Set<string>();
    const leads = this.o.leads();
    for (const n of nodes) {
      if (n.id === id) continue;
      // silent() runs on every process: a process that becomes the leader knows how long each has been still.
      const silent = this.silent(n.id, Number(n.seen_at), now);
      if (knownGone(n.scope, n.pid, Number(n.pid_start)) || (silent && leads)) dead.add(n.id);
    }
    for (const id of this.seen.keys()) if (!known.has(id)) this.seen.delete(id);
    // Rows whose process is not registered at all: it was removed as dead before they were resolved.
    if (leads) for (const node of holders) if (node !== id && !known.has(node)) dead.add(node);

    const recovered: Recovered[] = [];
    if (holders.includes(id)) recovered.push(...(await recoverNode(db, this.o.kind, id, this.o.isLive)));
    for (const node of dead) {
      recovered.push(...(await recoverNode(db, this.o.kind, node)));
      const seenAt = known.get(node)?.seen_at;
      if (seenAt !== undefined) await deleteNode(db, node, seenAt);
    }
    if (recovered.length > 0) this.o.onRecovered(recovered);
  }

  /** Whether the node's heartbeat has stood still for the timeout (as this process has watched it). */
  private silent(node: string, seenAt: number, now: number): boolean {
    const s = this.seen.get(node);
    if (!s || s.seenAt !== seenAt) {
      this.seen.set(node, { seenAt, changedAt: now });
      return false;
    }
    return now - s.changedAt >= this.o.timeoutMs;
  }
}
