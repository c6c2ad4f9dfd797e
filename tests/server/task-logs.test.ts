/**
 * The console's task lists on the real gateway: /api/mj/ and /api/task/ (admins: every user's
 * rows, filters by channel, task id, time range and user) and their /self twins (own rows only, no
 * channel). Rows are inserted straight into the tables the task relay writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Insertable } from 'kysely';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import { insertWithId } from '../../server/db/helpers.js';
import { nowSeconds } from '../../server/db/index.js';
import type { MidjourneysTable, TasksTable } from '../../server/db/types.js';
import { listMidjourneys, listTasks } from '../../server/tasks/list-repository.js';
import type { MjItem, MjPage, TaskPage } from '../../server/tasks/list-schemas.js';

const NO_RIGHTS = '无权进行此操作，权限不足';
const TIME_RANGE = '参数错误：开始时间不能晚于结束时间';

await forEachDatabase('task logs', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let alice: ApiClient;
  let bob: ApiClient;
  let aliceId: number;
  let bobId: number;
  let chA: number;
  let chB: number;
  /** Row ids by name (m1 … m5 in midjourneys, t1 … t4 in tasks, see beforeAll). */
  const ids: Record<string, number> = {};
  const tids: Record<string, number> = {};
  /** A day-old base time in seconds. */
  const T = nowSeconds() - 100_000;

  const db = () => tg.gateway.ctx.db;

  async function insertMj(name: string, row: Insertable<MidjourneysTable>): Promise<void> {
    ids[name] = await insertWithId(db(), tg.gateway.ctx.dbKind, 'midjourneys', { created_at: T, ...row });
  }

  async function insertTask(name: string, row: Insertable<TasksTable>): Promise<void> {
    tids[name] = await insertWithId(db(), tg.gateway.ctx.dbKind, 'tasks', { created_at: T, platform: 'suno', ...row });
  }

  async function data<T>(client: ApiClient, path: string): Promise<T> {
    const res = await client.get(path);
    expect(res.status).toBe(200);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
    return res.body.data as T;
  }

  const nameIn = (names: Record<string, number>, id: number) => Object.entries(names).find(([, v]) => v === id)?.[0];
  const nameOf = (id: number) => nameIn(ids, id);
  const taskName = (id: number) => nameIn(tids, id);
  const mj = async (client: ApiClient, path: string) => {
    const page = await data<MjPage>(client, path);
    return { ...page, names: page.items.map((i) => nameOf(i.id)) };
  };
  const tasks = async (client: ApiClient, path: string) => {
    const page = await data<TaskPage>(client, path);
    return { ...page, names: page.items.map((i) => taskName(i.id)) };
  };

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const { db: database, dbKind } = tg.gateway.ctx;
    aliceId = await createUser(database, dbKind, { username: 'alice', password: PASSWORD });
    bobId = await createUser(database, dbKind, { username: 'bob', password: PASSWORD });
    await createUser(database, dbKind, { username: 'boss', password: PASSWORD, role: 10 });
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
    admin = await loginAs(tg, 'boss');

    chA = await insertWithId(database, dbKind, 'channels', { name: 'mj-channel-a', key: 'k-a', models: 'mj_imagine', type: 2 });
    chB = await insertWithId(database, dbKind, 'channels', {
      name: 'suno-channel-b',
      key: 'k-b',
      models: 'suno_music',
      type: 36,
    });
    await tg.gateway.ctx.channels.reload();

    // Drawing tasks: submit and finish times in ms.
    await insertMj('m1', {
      user_id: aliceId,
      channel_id: chA,
      mj_id: 'mj-1',
      action: 'IMAGINE',
      code: 1,
      status: 'SUCCESS',
      progress: '100%',
      prompt: 'a red fox',
      prompt_en: 'a red fox',
      image_url: 'https://cdn.example.com/fox.png',
      submit_time: (T + 10) * 1000,
      start_time: (T + 12) * 1000,
      finish_time: (T + 75) * 1000,
    });
    // Half a second into T + 20: an end bound of T + 20 (seconds) still covers it.
    await insertMj('m2', {
      user_id: aliceId,
      channel_id: chB,
      mj_id: 'mj-2',
      action: 'UPSCALE',
      code: 1,
      status: 'FAILURE',
      progress: '0%',
      fail_reason: 'banned prompt',
      submit_time: (T + 20) * 1000 + 500,
    });
    await insertMj('m3', {
      user_id: bobId,
      channel_id: chA,
      mj_id: 'mj-3',
      action: 'VARIATION',
      code: 21,
      status: 'IN_PROGRESS',
      progress: '50%',
      submit_time: (T + 30) * 1000,
    });
    // LIKE wildcards in an id must match only themselves.
    await insertMj('m4', { user_id: aliceId, channel_id: chA, mj_id: 'mj%_x', action: 'DESCRIBE', submit_time: (T + 40) * 1000 });
    await insertMj('m5', { user_id: bobId, channel_id: chB, mj_id: 'mj-5', action: 'BLEND', submit_time: (T + 5000) * 1000 });

    // Music tasks: times in seconds.
    await insertTask('t1', {
      user_id: aliceId,
      channel_id: chB,
      task_id: 'suno-1',
      action: 'MUSIC',
      status: 'SUCCESS',
      progress: '100%',
      submit_time: T + 10,
      finish_time: T + 100,
    });
    await insertTask('t2', {
      user_id: aliceId,
      channel_id: chA,
      task_id: 'suno-2',
      action: 'LYRICS',
      status: 'FAILURE',
      fail_reason: 'upstream refused',
      submit_time: T + 20,
    });
    await insertTask('t3', {
      user_id: bobId,
      channel_id: chB,
      task_id: 'suno-3',
      action: 'MUSIC',
      status: 'QUEUED',
      submit_time: T + 30,
    });
    await insertTask('t4', {
      user_id: aliceId,
      channel_id: chB,
      task_id: 'suno_%',
      action: 'MUSIC',
      status: '',
      submit_time: T + 40,
    });
  });

  afterAll(async () => {
    await tg?.close();
  });

  describe('drawing tasks (/api/mj)', () => {
    it('gives an admin every row, newest first, with the owner and the channel', async () => {
      const page = await mj(admin, '/api/mj/');
      expect(page.names).toEqual(['m5', 'm4', 'm3', 'm2', 'm1']);
      expect(page).toMatchObject({ total: 5, page: 1, page_size: 10, total_capped: false });
      const first = page.items.find((i) => i.id === ids.m1) as MjItem;
      expect(first).toEqual({
        id: ids.m1,
        created_at: T,
        submit_time: (T + 10) * 1000,
        start_time: (T + 12) * 1000,
        finish_time: (T + 75) * 1000,
        user_id: aliceId,
        username: 'alice',
        channel_id: chA,
        channel_name: 'mj-channel-a',
        action: 'IMAGINE',
        mj_id: 'mj-1',
        code: 1,
        status: 'SUCCESS',
        progress: '100%',
        image_url: 'https://cdn.example.com/fox.png',
        prompt: 'a red fox',
        prompt_en: 'a red fox',
        fail_reason: '',
      });
      expect(page.items.find((i) => i.id === ids.m2)).toMatchObject({ fail_reason: 'banned prompt', image_url: '', prompt: '' });
      // An empty text filter means "any".
      expect((await mj(admin, '/api/mj/?mj_id=&username=')).names).toEqual(page.names);
      // Root is an admin too; both spellings of the path answer.
      expect((await mj(root, '/api/mj')).names).toEqual(page.names);
    });

    it('filters by channel, exact task id, user and time range, together', async () => {
      expect((await mj(admin, `/api/mj/?channel_id=${chA}`)).names).toEqual(['m4', 'm3', 'm1']);
      expect((await mj(admin, '/api/mj/?mj_id=mj-2')).names).toEqual(['m2']);
      expect((await mj(admin, '/api/mj/?mj_id=%20mj-2%20')).names).toEqual(['m2']);
      expect((await mj(admin, `/api/mj/?mj_id=${encodeURIComponent('mj%_x')}`)).names).toEqual(['m4']);
      expect((await mj(admin, `/api/mj/?mj_id=${encodeURIComponent('mj%')}`)).names).toEqual([]);
      expect((await mj(admin, '/api/mj/?mj_id=mj-')).names).toEqual([]);
      expect((await mj(admin, '/api/mj/?username=bob')).names).toEqual(['m5', 'm3']);
      expect((await mj(admin, '/api/mj/?username=nobody')).total).toBe(0);
      expect((await mj(admin, `/api/mj/?username=alice&channel_id=${chA}`)).names).toEqual(['m4', 'm1']);
      // Seconds, as the console sends them; the end second is whole.
      expect((await mj(admin, `/api/mj/?start_timestamp=${T}&end_timestamp=${T + 20}`)).names).toEqual(['m2', 'm1']);
      expect((await mj(admin, `/api/mj/?start_timestamp=${T + 21}`)).names).toEqual(['m5', 'm4', 'm3']);
      // Milliseconds are understood too.
      expect((await mj(admin, `/api/mj/?start_timestamp=${T * 1000}&end_timestamp=${(T + 20) * 1000}`)).names).toEqual(['m1']);
      expect((await mj(admin, `/api/mj/?channel_id=${chA}&start_timestamp=${T + 20}&end_timestamp=${T + 40}`)).names).toEqual([
        'm4',
        'm3',
      ]);
    });

    it('pages with p and page_size', async () => {
      const second = await mj(admin, '/api/mj/?p=2&page_size=2');
      expect(second).toMatchObject({ names: ['m3', 'm2'], total: 5, page: 2, page_size: 2, total_capped: false });
      expect(await mj(admin, '/api/mj/?p=3&page_size=2')).toMatchObject({ names: ['m1'], total: 5, page: 3 });
      expect(await mj(admin, '/api/mj/?p=9&page_size=2')).toMatchObject({ names: [], total: 5 });
      expect(await mj(admin, `/api/mj/?p=2&page_size=1&channel_id=${chA}`)).toMatchObject({ names: ['m3'], total: 3 });
    });

    it('gives a user only their own rows on /self, without the channel or owner, whatever filters they send', async () => {
      const own = await mj(alice, '/api/mj/self');
      expect(own.names).toEqual(['m4', 'm2', 'm1']);
      for (const item of own.items)
        expect(item).toMatchObject({ user_id: aliceId, channel_id: 0, channel_name: '', username: '' });
      expect((await mj(alice, `/api/mj/self/?username=bob&channel_id=${chA}`)).names).toEqual(['m4', 'm2', 'm1']);
      expect((await mj(alice, '/api/mj/self/?mj_id=mj-3')).names).toEqual([]);
      expect((await mj(alice, '/api/mj/self/?mj_id=mj-2')).names).toEqual(['m2']);
      expect((await mj(alice, `/api/mj/self/?start_timestamp=${T + 15}&end_timestamp=${T + 60}`)).names).toEqual(['m4', 'm2']);
      expect(await mj(alice, '/api/mj/self/?p=2&page_size=2')).toMatchObject({ names: ['m1'], total: 3, page: 2 });
      expect((await mj(bob, '/api/mj/self/')).names).toEqual(['m5', 'm3']);
      // An admin's own list is theirs alone too.
      expect((await mj(admin, '/api/mj/self')).names).toEqual([]);
    });

    it('serves images through the gateway when MjForwardUrlEnabled is on', async () => {
      const options = tg.gateway.ctx.options;
      await options.set('ServerAddress', 'https://gw.example.com/');
      await options.set('MjForwardUrlEnabled', 'true');
      try {
        const page = await mj(alice, '/api/mj/self');
        expect(page.items.find((i) => i.id === ids.m1)?.image_url).toBe('https://gw.example.com/mj/image/mj-1');
        // No image yet: nothing to forward.
        expect(page.items.find((i) => i.id === ids.m2)?.image_url).toBe('');
      } finally {
        await options.set('MjForwardUrlEnabled', 'false');
      }
      expect((await mj(alice, '/api/mj/self')).items.find((i) => i.id === ids.m1)?.image_url).toBe(
        'https://cdn.example.com/fox.png',
      );
    });
  });

  describe('other tasks (/api/task)', () => {
    it('gives an admin every row, newest first, with the owner and the channel', async () => {
      const page = await tasks(admin, '/api/task/');
      expect(page.names).toEqual(['t4', 't3', 't2', 't1']);
      expect(page).toMatchObject({ total: 4, page: 1, page_size: 10, total_capped: false });
      expect(page.items.find((i) => i.id === tids.t1)).toEqual({
        id: tids.t1,
        created_at: T,
        submit_time: T + 10,
        start_time: 0,
        finish_time: T + 100,
        user_id: aliceId,
        username: 'alice',
        channel_id: chB,
        channel_name: 'suno-channel-b',
        platform: 'suno',
        action: 'MUSIC',
        task_id: 'suno-1',
        status: 'SUCCESS',
        progress: '100%',
        fail_reason: '',
      });
      expect(page.items.find((i) => i.id === tids.t2)?.fail_reason).toBe('upstream refused');
      expect((await tasks(root, '/api/task')).names).toEqual(page.names);
    });

    it('filters by channel, exact task id, user and time range (seconds)', async () => {
      expect((await tasks(admin, `/api/task/?channel_id=${chB}`)).names).toEqual(['t4', 't3', 't1']);
      expect((await tasks(admin, '/api/task/?task_id=suno-2')).names).toEqual(['t2']);
      expect((await tasks(admin, `/api/task/?task_id=${encodeURIComponent('suno_%')}`)).names).toEqual(['t4']);
      expect((await tasks(admin, '/api/task/?task_id=suno')).names).toEqual([]);
      expect((await tasks(admin, '/api/task/?username=bob')).names).toEqual(['t3']);
      expect((await tasks(admin, '/api/task/?username=nobody')).names).toEqual([]);
      expect((await tasks(admin, `/api/task/?start_timestamp=${T + 20}&end_timestamp=${T + 30}`)).names).toEqual(['t3', 't2']);
      expect((await tasks(admin, `/api/task/?username=alice&channel_id=${chB}&end_timestamp=${T + 39}`)).names).toEqual(['t1']);
    });

    it('pages with p and page_size', async () => {
      expect(await tasks(admin, '/api/task/?p=2&page_size=3')).toMatchObject({ names: ['t1'], total: 4, page: 2, page_size: 3 });
      expect(await tasks(admin, '/api/task/?page_size=3')).toMatchObject({ names: ['t4', 't3', 't2'], total: 4 });
    });

    it('gives a user only their own rows on /self, without the channel or owner', async () => {
      const own = await tasks(alice, '/api/task/self');
      expect(own.names).toEqual(['t4', 't2', 't1']);
      for (const item of own.items)
        expect(item).toMatchObject({ user_id: aliceId, channel_id: 0, channel_name: '', username: '' });
      expect((await tasks(alice, `/api/task/self/?username=bob&channel_id=${chA}`)).names).toEqual(['t4', 't2', 't1']);
      expect((await tasks(alice, '/api/task/self?task_id=suno-3')).names).toEqual([]);
      expect((await tasks(alice, `/api/task/self?start_timestamp=${T + 15}&end_timestamp=${T + 20}`)).names).toEqual(['t2']);
      expect((await tasks(bob, '/api/task/self/')).names).toEqual(['t3']);
    });
  });

  describe('access and bad input', () => {
    it('refuses the admin lists to users and every list to anonymous callers', async () => {
      for (const path of ['/api/mj/', '/api/mj', '/api/task/', '/api/task']) {
        const res = await alice.get(path);
        expect(res.body, path).toMatchObject({ success: false, message: NO_RIGHTS });
      }
      for (const path of ['/api/mj/', '/api/mj/self', '/api/task/', '/api/task/self']) {
        expect((await tg.client().get(path)).status, path).toBe(401);
      }
    });

    it('refuses malformed paging, ids, filters and a reversed time range', async () => {
      for (const path of [
        '/api/mj/self?p=0',
        '/api/mj/self?page_size=0',
        '/api/mj/self?page_size=101',
        '/api/mj/?channel_id=abc',
        '/api/mj/?channel_id=-1',
        '/api/mj/self?start_timestamp=yesterday',
        `/api/mj/self?mj_id=${'x'.repeat(192)}`,
        '/api/task/self?p=abc',
        '/api/task/?channel_id=1.5',
        '/api/task/self?end_timestamp=-5',
        `/api/task/?username=${'u'.repeat(65)}`,
      ]) {
        const res = await (path.includes('/self') ? alice : admin).get(path);
        expect(res.status, path).toBe(200);
        expect(res.body.success, path).toBe(false);
        expect(res.body.message, path).toMatch(/^参数错误/);
      }
      for (const path of [
        `/api/mj/self?start_timestamp=${T + 10}&end_timestamp=${T}`,
        `/api/task/?start_timestamp=${T + 10}&end_timestamp=${T}`,
      ]) {
        const res = await (path.includes('/self') ? alice : admin).get(path);
        expect(res.body, path).toMatchObject({ success: false, message: TIME_RANGE });
      }
    });
  });

  describe('the repository', () => {
    it('counts no further than the window past the page', async () => {
      const { db: database, dbKind } = tg.gateway.ctx;
      const capped = await listMidjourneys(database, dbKind, {}, 2, 0, 1);
      expect(capped).toMatchObject({ total: 3, capped: true });
      expect(capped.rows.map((r) => nameOf(r.id))).toEqual(['m5', 'm4']);
      expect(await listMidjourneys(database, dbKind, {}, 2, 0, 3)).toMatchObject({ total: 5, capped: false });
      expect(await listTasks(database, dbKind, { userId: aliceId }, 1, 1, 0)).toMatchObject({ total: 2, capped: true });
      expect(await listTasks(database, dbKind, { userId: aliceId }, 1, 1, 1)).toMatchObject({ total: 3, capped: false });
    });
  });
});
