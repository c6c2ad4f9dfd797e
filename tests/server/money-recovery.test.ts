import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { moneyOf, tokenWith } from '../helpers/money.js';
import { recoverNode } from '../../server/billing/recovery.js';
import { NodeWatch } from '../../server/cluster/nodes.js';
import type { Hold } from '../../server/billing/holds.js';

// Holds that nobody will settle are resolved once: charged what their last checkpoint recorded as
// delivered, the rest given back, with a log row. A hold whose row was resolved while its call was
// still going (its process looked dead) settles the rest when the call ends: the logs still add up.
await forEachDatabase('recovering holds', (kind) => {
  let f: RelayFixture;
  let token: { id: number; key: string };
  const START = 1_000_000;

  beforeAll(async () => {
    f = await startRelayFixture(kind, { userQuota: START });
    token = await tokenWith(f, { remain_quota: START, unlimited_quota: false });
  });
  afterAll(async () => f?.close());

  const take = async (amount: number): Promise<Hold> => {
    const ctx = f.tg.gateway.ctx;
    const taken = await ctx.holds.take({ userId: f.userId, tokenId: token.id, unlimitedToken: false }, amount, () => ({
      username: 'alice',
      token_name: 'held',
      model_name: 'gpt-4o-mini',
      group: 'default',
      ip: '127.0.0.1',
      is_stream: 1,
      other: { model_ratio: 1 },
    }));
    if (!taken.ok) throw new Error(taken.reason);
    return taken.hold;
  };
  const settleLog = (quota: number) => ({
    user_id: f.userId,
    created_at: Math.floor(Date.now() / 1000),
    type: 2,
    username: 'alice',
    token_id: token.id,
    model_name: 'gpt-4o-mini',
    quota,
    other: '{}',
  });

  /**
   * A hold whose row another process's recovery resolved (this one looked dead) while its call is
   * still going here: charged `delivered`, its last checkpoint; with what the recovery returned.
   */
  const takenByRecovery = async (amount: number, delivered: number) => {
    const ctx = f.tg.gateway.ctx;
    const hold = await take(amount);
    hold.checkpoint(delivered, 10, delivered - 10, 1);
    await f.flush();
    return { hold, recovered: await recoverNode(ctx.db, ctx.dbKind, ctx.holds.node) };
  };

  it('charges a dead hold its delivered part, gives back the rest, and logs it', async () => {
    const { hold, recovered } = await takenByRecovery(500, 120);
    expect(recovered.map((r) => r.charged)).toEqual([120]);
    let m = await moneyOf(f, f.userId, token.id);
    expect(m.reservations).toBe(0);
    expect(m.logged).toBe(120);
    expect(m.user.quota).toBe(START - 120);
    expect(JSON.parse(m.consume[0]!.other ?? '{}')).toMatchObject({ interrupted: 'process_lost', reserved_quota: 500 });

    // The call ends and costs 700: the 580 not yet charged are charged now.
    await hold.settle(700, 1, settleLog(700));
    m = await moneyOf(f, f.userId, token.id);
    expect(m.consume.map((l) => l.quota)).toEqual([120, 580]);
    expect(JSON.parse(m.consume[1]!.other ?? '{}').after_recovery).toEqual({ recovered_quota: 120 });
    expect(m.logged).toBe(700);
    expect(m.user.quota).toBe(START - 700);
    expect(m.token!.remain_quota).toBe(START - 700);
    expect(m.user.used_quota).toBe(700);
  });

  it('settles in one batch a hold a recovery took beside holds still stored, each exactly once', async () => {
    const before = await moneyOf(f, f.userId, token.id);
    const { hold: taken } = await takenByRecovery(500, 100);
    const stored = await Promise.all([take(300), take(300)]);
    // Handed over in one turn: one batch deletes two rows that are there and finds one gone.
    await Promise.all([taken.settle(400, 1, settleLog(400)), ...stored.map((h) => h.settle(200, 1, settleLog(200)))]);
    const m = await moneyOf(f, f.userId, token.id);
    expect(m.reservations).toBe(0);
    expect(
      m.consume
        .slice(-3)
        .map((l) => l.quota)
        .sort((a, b) => a - b),
    ).toEqual([200, 200, 300]);
    expect(m.logged - before.logged).toBe(400 + 200 + 200);
    expect(before.user.quota - m.user.quota).toBe(800);
    expect(before.token!.remain_quota - m.token!.remain_quota).toBe(800);
  });

  it('gives back what a recovery charged beyond the final cost, as a refund row', async () => {
    const before = await moneyOf(f, f.userId, token.id);
    const { hold } = await takenByRecovery(500, 300);
    await hold.settle(250, 1, settleLog(250));
    const m = await moneyOf(f, f.userId, token.id);
    expect(m.refunds.at(-1)!.quota).toBe(50);
    expect(m.logged - before.logged).toBe(250);
    expect(before.user.quota - m.user.quota).toBe(250);
  });

  it('resolves each row once when two processes recover at the same time', async () => {
    const ctx = f.tg.gateway.ctx;
    const before = await moneyOf(f, f.userId, token.id);
    const holds = await Promise.all(Array.from({ length: 10 }, () => take(100)));
    for (const h of holds) h.checkpoint(40, 5, 35, 1);
    await f.flush();
    const [a, b] = await Promise.all([
      recoverNode(ctx.db, ctx.dbKind, ctx.holds.node),
      recoverNode(ctx.db, ctx.dbKind, ctx.holds.node),
    ]);
    expect(a.length + b.length).toBe(10);
    const m = await moneyOf(f, f.userId, token.id);
    expect(m.reservations).toBe(0);
    expect(m.logged - before.logged).toBe(10 * 40);
    expect(before.user.quota - m.user.quota).toBe(10 * 40);
    // Each call then ends costing what it had delivered: nothing more moves.
    for (const h of holds) await h.settle(40, 1, settleLog(40));
    const after = await moneyOf(f, f.userId, token.id);
    expect(after.user.quota).toBe(m.user.quota);
    expect(after.logged).toBe(m.logged);
  });

  it('leaves the holds of calls still going to their own process', async () => {
    const ctx = f.tg.gateway.ctx;
    const hold = await take(100);
    await f.flush();
    const recovered = await recoverNode(ctx.db, ctx.dbKind, ctx.holds.node, (id) => ctx.holds.live.has(id));
    expect(recovered).toEqual([]);
    await hold.settle(80, 1, settleLog(80));
    expect((await moneyOf(f, f.userId, token.id)).reservations).toBe(0);
  });

  it('resolves a silent process only on the holder of the jobs lease', async () => {
    const ctx = f.tg.gateway.ctx;
    const hold = await take(100);
    hold.checkpoint(30, 5, 25, 1);
    await f.flush();
    // The hold now belongs to a process on another host whose heartbeat has stopped.
    await ctx.db.updateTable('reservations').set({ node: 'ghost' }).where('node', '=', ctx.holds.node).execute();
    const long = Date.now() - 3_600_000;
    await ctx.db
      .insertInto('nodes')
      .values({ id: 'ghost', host: 'elsewhere', scope: 'another-host', pid: 1, pid_start: 1, started_at: long, seen_at: long })
      .execute();
    let leads = false;
    const recovered: number[] = [];
    const watch = new NodeWatch({
      db: ctx.db,
      kind: ctx.dbKind,
      id: 'watcher',
      isLive: () => false,
      timeoutMs: 50,
      leads: () => leads,
      onRecovered: (r) => recovered.push(...r.map((x) => x.charged)),
      onError: (err) => {
        throw err;
      },
    });
    const twoTicks = async () => {
      await watch.tick();
      await new Promise((resolve) => setTimeout(resolve, 80));
      // This gateway's own heartbeat moves meanwhile: only the ghost is silent.
      await ctx.db.updateTable('nodes').set({ seen_at: Date.now() }).where('id', '=', ctx.holds.node).execute();
      await watch.tick();
    };
    await twoTicks();
    expect(recovered).toEqual([]);
    expect((await moneyOf(f, f.userId, token.id)).reservations).toBe(1);
    leads = true;
    await twoTicks();
    expect(recovered).toEqual([30]);
    expect((await moneyOf(f, f.userId, token.id)).reservations).toBe(0);
    const left = await ctx.db.selectFrom('nodes').select('id').orderBy('id').execute();
    expect(left.map((n) => n.id).sort()).toEqual([ctx.holds.node, 'watcher'].sort());
    await ctx.db.deleteFrom('nodes').where('id', '=', 'watcher').execute();
    await hold.settle(30, 1, settleLog(30));
  });
});
