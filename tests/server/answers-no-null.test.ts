/**
 * Text is "" and numbers are numbers in every console answer, never null: clients of this family
 * send back what they were given, and a `null` comes back as the text "null" (a channel re-saved
 * with model_mapping "null" is refused). Checked twice: the answer schemas of the rows allow no null,
 * and real answers about rows whose nullable columns were never set hold none.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { TSchema } from '@sinclair/typebox';
import { forEachDatabase } from '../helpers/databases.js';
import { flushWrites, setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';
import { expectOk, newKey } from '../helpers/channels.js';
import { insertWithId } from '../../server/db/helpers.js';
import { ChannelView } from '../../server/channels/schemas.js';
import { PublicUser, SelfUser, UserListItem } from '../../server/users/schemas.js';
import { TokenView } from '../../server/tokens/schemas.js';
import { RedemptionView } from '../../server/redemptions/schemas.js';
import { ModelView, VendorView } from '../../server/catalog/schemas.js';
import { PricingItem, PricingVendor } from '../../server/pricing/schemas.js';
import { LogItem } from '../../server/logs/schemas.js';
import { MjItem, TaskItem } from '../../server/tasks/list-schemas.js';

/**
 * Week-on-week style changes have no value without an earlier period to compare with; a user's
 * times in the family's own fields (created_at, last_login_at, DeletedAt) are null until the event
 * happened, as the family's console reads them (it takes null for "never", a 0 for 1970).
 */
const MAY_BE_NULL = new Set([
  'usage.day_on_day',
  'usage.week_on_week',
  'usage.month_on_month',
  'created_at',
  'last_login_at',
  'DeletedAt',
]);

/** Paths in a schema where null is allowed. */
function nullablePaths(schema: TSchema, path = ''): string[] {
  const s = schema as Record<string, unknown>;
  const here: string[] = [];
  const branches = (s.anyOf ?? s.oneOf) as TSchema[] | undefined;
  if (s.type === 'null' || (Array.isArray(s.type) && s.type.includes('null'))) here.push(path);
  if (branches) for (const b of branches) here.push(...nullablePaths(b, path));
  const properties = s.properties as Record<string, TSchema> | undefined;
  if (properties) {
    for (const [name, p] of Object.entries(properties)) here.push(...nullablePaths(p, path ? `${path}.${name}` : name));
  }
  if (s.items) here.push(...nullablePaths(s.items as TSchema, `${path}[]`));
  return here;
}

/** Paths in an answer that hold null. */
function nullsIn(value: unknown, path = ''): string[] {
  if (value === null) return [path];
  if (Array.isArray(value)) return value.flatMap((v) => nullsIn(v, `${path}[]`));
  if (typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => nullsIn(v, path ? `${path}.${k}` : k));
  }
  return [];
}

it('describes no row answer with a nullable text or number', () => {
  const views = {
    ChannelView,
    PublicUser,
    SelfUser,
    UserListItem,
    TokenView,
    RedemptionView,
    ModelView,
    VendorView,
    PricingItem,
    PricingVendor,
    LogItem,
    MjItem,
    TaskItem,
  };
  for (const [name, schema] of Object.entries(views)) {
    const allowed = nullablePaths(schema).filter((p) => !MAY_BE_NULL.has(p));
    expect(allowed, name).toEqual([]);
  }
});

await forEachDatabase('no null in answers', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  const ids = { channel: 0, user: 0, token: 0, code: 0 };

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const db = tg.gateway.ctx.db;
    // Only what is required: every optional column of these rows stays NULL in the database.
    ids.channel = expectOk(await root.post('/api/channel/', { name: 'bare', type: 1, key: newKey(), models: ['gpt-4o'] })).id;
    expectOk(await root.post('/api/channel/', { name: 'tagged', type: 1, key: newKey(), models: ['gpt-4o'], tag: 't' }));
    expect((await root.post('/api/user/', { username: 'plain', password: 'password-123' })).body.success).toBe(true);
    ids.user = (await db.selectFrom('users').select('id').where('username', '=', 'plain').executeTakeFirstOrThrow()).id;
    expect((await root.put('/api/user/', { id: ids.user, username: 'plain', quota: 10 })).body.success).toBe(true);
    expect((await root.post('/api/token/', { name: 'tok' })).body.success).toBe(true);
    ids.token = (await db.selectFrom('tokens').select('id').executeTakeFirstOrThrow()).id;
    expect((await root.post('/api/redemption/', { name: 'code' })).body.success).toBe(true);
    ids.code = (await db.selectFrom('redemptions').select('id').executeTakeFirstOrThrow()).id;
    await insertWithId(db, tg.gateway.ctx.dbKind, 'midjourneys', { user_id: ids.user, created_at: 1 });
    await insertWithId(db, tg.gateway.ctx.dbKind, 'tasks', { user_id: ids.user, platform: 'suno', created_at: 1 });
    await flushWrites(tg);
    const stored = await db.selectFrom('channels').selectAll().where('id', '=', ids.channel).executeTakeFirstOrThrow();
    expect(stored.model_mapping).toBeNull();
  });
  afterAll(async () => tg?.close());

  it('answers every list and detail about such rows without a null', async () => {
    const paths = [
      '/api/channel/?p=1',
      '/api/channel/?tag_mode=true',
      `/api/channel/${ids.channel}`,
      '/api/channel/search?keyword=bare',
      '/api/user/?p=1',
      `/api/user/${ids.user}`,
      '/api/user/search?keyword=plain',
      '/api/user/query?keyword=plain',
      '/api/user/self',
      '/api/token/?p=1',
      `/api/token/${ids.token}`,
      '/api/redemption/?p=1',
      `/api/redemption/${ids.code}`,
      '/api/log/?p=1',
      '/api/log/self/',
      '/api/log/stat',
      '/api/mj/',
      '/api/task/',
      '/api/option/',
    ];
    for (const path of paths) {
      const res = await root.get(path);
      expect(res.body.success, `${path}: ${res.body.message}`).toBe(true);
      const nulls = nullsIn(res.body.data).filter((p) => !MAY_BE_NULL.has(p.replace(/^(items)?\[\]\./, '')));
      expect(nulls, path).toEqual([]);
    }
  });

  it('takes back a channel exactly as it answered it', async () => {
    const shown = expectOk(await root.get(`/api/channel/${ids.channel}`));
    expect(shown).toMatchObject({ model_mapping: '', tag: '', other: '', setting: '', param_override: '', test_model: '' });
    const { id, ...fields } = shown;
    const saved = expectOk(await root.put('/api/channel/', { id, ...fields, name: 'bare again' }));
    expect(saved).toMatchObject({ name: 'bare again', model_mapping: '', status_code_mapping: '', tag: '' });
  });
});
