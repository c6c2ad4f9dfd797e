/**
 * The family's token calls: keys answered as stored (no `sk-`, which its consoles add themselves),
 * POST /api/token/batch (delete the selected, answers the count) and POST /api/token/batch/keys
 * (`{keys: {id: key}}`), with the single reveal's ownership rule and rate limit; the relay takes a
 * key with or without `sk-`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';
import type { Token } from '../../server/db/types.js';

await forEachDatabase('token batch calls', (kind) => {
  let tg: TestGateway;
  let alice: ApiClient;
  let bob: ApiClient;

  const row = (id: number): Promise<Token> =>
    tg.gateway.ctx.db.selectFrom('tokens').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  const create = async (client: ApiClient, name: string): Promise<number> => {
    const res = await client.post('/api/token/', { name });
    expect(res.body.success, res.body.message).toBe(true);
    return res.body.data.id as number;
  };

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    await setupRoot(tg);
    const { db, dbKind } = tg.gateway.ctx;
    await createUser(db, dbKind, { username: 'alice', password: PASSWORD });
    await createUser(db, dbKind, { username: 'bob', password: PASSWORD });
    alice = await loginAs(tg, 'alice');
    bob = await loginAs(tg, 'bob');
  });
  afterAll(async () => tg?.close());

  it('answers every revealed key as stored, without sk-', async () => {
    const a = await create(alice, 'plain-a');
    const b = await create(alice, 'plain-b');
    const keyA = (await row(a)).key;
    const keyB = (await row(b)).key;
    expect((await alice.post(`/api/token/${a}/key`)).body.data).toEqual({ key: keyA });
    expect((await alice.post(`/api/token/new/${a}/key`)).body.data).toEqual({ key: keyA });
    expect((await alice.post('/api/token/keys', { ids: [a, b] })).body.data).toEqual([
      { id: a, key: keyA },
      { id: b, key: keyB },
    ]);
    const batch = await alice.post('/api/token/batch/keys', { ids: [b, a] });
    expect(batch.body).toEqual({ success: true, message: '', data: { keys: { [a]: keyA, [b]: keyB } } });
    expect(JSON.stringify(batch.body)).not.toContain('sk-');
  });

  it("refuses a batch reveal naming another user's token, and an empty or oversized one", async () => {
    const mine = await create(alice, 'mine');
    const theirs = await create(bob, 'theirs');
    const res = await alice.post('/api/token/batch/keys', { ids: [mine, theirs] });
    expect(res.body).toMatchObject({ success: false, code: 'token.not_found' });
    expect(JSON.stringify(res.body)).not.toContain((await row(mine)).key);
    const invalid = { success: false, code: 'request.invalid_params' };
    expect((await alice.post('/api/token/batch/keys', { ids: [] })).body).toMatchObject(invalid);
    const many = Array.from({ length: 101 }, (_, i) => i + 1);
    expect((await alice.post('/api/token/batch/keys', { ids: many })).body).toMatchObject(invalid);
  });

  it("deletes the caller's selected tokens, answers the count, and leaves others' alone", async () => {
    const one = await create(alice, 'del-1');
    const two = await create(alice, 'del-2');
    const keep = await create(alice, 'keep');
    const bobs = await create(bob, 'bobs');
    const res = await alice.post('/api/token/batch', { ids: [one, two, bobs, 999999] });
    expect(res.body).toEqual({ success: true, message: '', data: 2 });
    expect((await row(one)).deleted_at).not.toBeNull();
    expect((await row(two)).deleted_at).not.toBeNull();
    expect((await row(keep)).deleted_at).toBeNull();
    expect((await row(bobs)).deleted_at).toBeNull();
    const listed = (await alice.get('/api/token/?size=100')).body.data.items.map((t: { id: number }) => t.id);
    expect(listed).toContain(keep);
    expect(listed).not.toContain(one);
    // Deleted keys cannot be revealed again; a second delete of them counts nothing.
    expect((await alice.post(`/api/token/${one}/key`)).body.success).toBe(false);
    expect((await alice.post('/api/token/batch', { ids: [one, two] })).body.data).toBe(0);
    expect((await alice.post('/api/token/batch', { ids: [] })).body).toMatchObject({
      success: false,
      code: 'request.invalid_params',
    });
    expect((await tg.client().post('/api/token/batch', { ids: [keep] })).status).toBe(401);
  });
});

describe('batch reveal is rate-limited like the single reveal', () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite', { SEARCH_RATE_LIMIT: '2' });
  });
  afterAll(async () => tg?.close());

  it('answers 429 once the search limit is spent', async () => {
    const root = await setupRoot(tg);
    const id = (await root.post('/api/token/', { name: 'limited' })).body.data.id as number;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await root.post('/api/token/batch/keys', { ids: [id] })).status);
    expect(statuses).toEqual([200, 200, 429, 429]);
  });
});

describe('the relay takes a revealed key with or without sk-', () => {
  let f: RelayFixture;
  beforeAll(async () => {
    f = await startRelayFixture('sqlite');
  });
  afterAll(async () => f?.close());

  it('serves both forms, and a deleted key in neither', async () => {
    expect(f.key.startsWith('sk-')).toBe(false);
    for (const key of [f.key, `sk-${f.key}`]) {
      const answer = await f
        .openai(key)
        .chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
      expect(answer.choices[0]?.message.content).toBeTruthy();
    }
    expect((await f.user.post('/api/token/batch', { ids: [f.tokenId] })).body.data).toBe(1);
    await expect(
      f.openai(`sk-${f.key}`).chat.completions.create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] }),
    ).rejects.toMatchObject({ status: 401 });
  });
});
