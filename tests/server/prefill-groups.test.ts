/**
 * /api/prefill_group, the family's named lists a channel editor prefills models, tags and
 * endpoints from: listed by type (most recently changed first), created, edited and deleted by
 * admins, with names kept unique and items kept a list of names.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';
import { createUser } from '../../server/users/repository.js';

await forEachDatabase('prefill groups', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
  });
  afterAll(async () => tg?.close());

  it('creates, lists by type, edits and deletes groups', async () => {
    const gpt = await root.post('/api/prefill_group', {
      name: 'gpt',
      type: 'model',
      items: ['gpt-4o', ' gpt-4o-mini ', 'gpt-4o'],
    });
    expect(gpt.body).toMatchObject({ success: true, data: { name: 'gpt', type: 'model', items: ['gpt-4o', 'gpt-4o-mini'] } });
    // Some family clients send the items as JSON text.
    const tags = await root.post('/api/prefill_group/', { name: 'teams', type: 'tag', items: '["a","b"]', description: 'tags' });
    expect(tags.body.data).toMatchObject({ items: ['a', 'b'], description: 'tags' });

    expect((await root.get('/api/prefill_group?type=model')).body.data.map((g: { name: string }) => g.name)).toEqual(['gpt']);
    expect((await root.get('/api/prefill_group')).body.data).toHaveLength(2);

    const id = gpt.body.data.id as number;
    const edited = await root.put('/api/prefill_group', { id, items: ['o3'] });
    expect(edited.body.data).toMatchObject({ id, name: 'gpt', type: 'model', items: ['o3'] });
    expect(edited.body.data.updated_time).toBeGreaterThanOrEqual(gpt.body.data.updated_time);

    expect((await root.delete(`/api/prefill_group/${id}`)).body.success).toBe(true);
    expect((await root.get('/api/prefill_group?type=model')).body.data).toEqual([]);
    expect((await root.delete(`/api/prefill_group/${id}`)).body).toMatchObject({ success: false, code: 'prefill.not_found' });
  });

  it('refuses duplicate names, unknown types, bad items and missing fields', async () => {
    await root.post('/api/prefill_group', { name: 'taken', type: 'endpoint', items: [] });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'taken', type: 'model', items: [] }, 'prefill.name_taken'],
      [{ name: 'x', type: 'colour', items: [] }, 'prefill.type_invalid'],
      [{ name: 'y', type: 'model', items: '{"a":1}' }, 'prefill.items_invalid'],
      [{ name: 'z', type: 'model', items: 'not json' }, 'prefill.items_invalid'],
      [{ name: ' ', type: 'model' }, 'prefill.name_type_required'],
    ];
    for (const [body, code] of cases) {
      expect((await root.post('/api/prefill_group', body)).body, JSON.stringify(body)).toMatchObject({ success: false, code });
    }
    expect((await root.get('/api/prefill_group')).body.data.map((g: { name: string }) => g.name)).not.toContain('x');
  });

  it('is for admins only', async () => {
    await createUser(tg.gateway.ctx.db, tg.gateway.ctx.dbKind, { username: 'una', password: PASSWORD });
    const user = await loginAs(tg, 'una');
    expect((await user.get('/api/prefill_group')).body).toMatchObject({ success: false, code: 'auth.forbidden' });
    expect((await tg.client().get('/api/prefill_group')).status).toBe(401);
  });
});
