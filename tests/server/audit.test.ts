/**
 * The admin audit log through the real app on every database: who changed what (before → after,
 * secrets masked), under which request id and from where; refusals leave no row; a database that
 * cannot take the audit row refuses the change before it happens.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import { setupRoot, startTestGateway, type ApiClient, type ApiResponse, type TestGateway } from '../helpers/gateway.js';
import { loginAs, PASSWORD } from '../helpers/users.js';

const KEY_BEFORE = 'sk-audit-before-0123456789abcdef-AAAA';
const KEY_AFTER = 'sk-audit-after-0123456789abcdef-BBBB';
const SMTP_SECRET = 'smtp-secret-0123456789-WXYZ';

function ok(res: ApiResponse): any {
  expect(res.body, JSON.stringify(res.body)).toMatchObject({ success: true });
  return res.body.data;
}

await forEachDatabase('admin audit log', (kind) => {
  let tg: TestGateway;
  let root: ApiClient;
  let admin: ApiClient;
  let aliceId: number;

  const audit = async (query: Record<string, string | number>) => {
    const params = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)]));
    return ok(await root.get(`/api/audit/?${params}`)) as { items: any[]; total: number };
  };
  const detail = async (id: number) => ok(await root.get(`/api/audit/${id}`));
  const total = async () => (await audit({})).total;
  /** The one row a request wrote (of `subject`), with its changes. */
  const rowOf = async (res: ApiResponse, subject: string) => {
    const requestId = res.headers.get('x-request-id') ?? '';
    expect(requestId).not.toBe('');
    const { items } = await audit({ request_id: requestId, subject });
    expect(items).toHaveLength(1);
    return detail(items[0].id);
  };
  const changeOf = (row: any, field: string) => row.changes.find((c: any) => c.field === field);

  beforeAll(async () => {
    tg = await startTestGateway(kind);
    root = await setupRoot(tg);
    const alice = ok(await root.post('/api/user/', { username: 'alice', password: PASSWORD, display_name: 'Alice' }));
    aliceId = alice.id;
    const ada = ok(await root.post('/api/user/', { username: 'ada', password: PASSWORD }));
    ok(await root.post('/api/user/manage', { id: ada.id, action: 'promote' }));
    admin = await loginAs(tg, 'ada');
  });
  afterAll(async () => tg?.close());

  it('records a quota change with the actor, before → after, the request id and the address', async () => {
    const res = await root.put('/api/user/', { id: aliceId, quota: 500000 });
    ok(res);
    const row = await rowOf(res, 'user');
    expect(row).toMatchObject({
      subject: 'user',
      subject_id: String(aliceId),
      action: 'update',
      outcome: 'ok',
      actor_username: 'root',
      actor_role: 100,
      ip: '127.0.0.1',
      route: 'PUT /api/user/',
      request_id: res.headers.get('x-request-id'),
    });
    expect(row.actor_id).toBe(root.userId);
    expect(row.changes).toEqual([{ field: 'quota', before: 0, after: 500000 }]);
    // The list names the changed fields; filters find it by actor, subject, id, action and time.
    const listed = await audit({ actor: 'roo', subject: 'user', subject_id: aliceId, action: 'update' });
    expect(listed.items.map((i) => i.id)).toContain(row.id);
    expect(listed.items.find((i) => i.id === row.id).fields).toEqual(['quota']);
    const now = Math.floor(Date.now() / 1000);
    expect((await audit({ start_timestamp: now - 60, end_timestamp: now + 60, subject: 'user' })).total).toBeGreaterThan(0);
    expect((await audit({ end_timestamp: now - 3600 })).total).toBe(0);
  });

  it('records the creation of a user and a promotion by the manage action', async () => {
    const created = await audit({ subject: 'user', action: 'create' });
    const alice = created.items.find((i) => i.subject_id === String(aliceId));
    expect(alice.fields).toEqual([]);
    const row = await detail(alice.id);
    expect(changeOf(row, 'username')).toEqual({ field: 'username', after: 'alice' });
    expect(changeOf(row, 'password')).toEqual({ field: 'password', after: '••••••' });
    expect(JSON.stringify(row)).not.toContain('$2'); // no password hash
    const promoted = await audit({ subject: 'user', action: 'promote' });
    expect(promoted.total).toBe(1);
    expect((await detail(promoted.items[0].id)).changes).toEqual([{ field: 'role', before: 1, after: 10 }]);
  });

  it('records an option change, masks secret options and diffs price maps entry by entry', async () => {
    const res = await root.put('/api/option/', { key: 'QuotaRemindThreshold', value: '2500' });
    ok(res);
    const row = await rowOf(res, 'option');
    expect(row).toMatchObject({ subject_id: 'QuotaRemindThreshold', action: 'update', actor_username: 'root' });
    expect(row.changes).toEqual([{ field: 'value', before: '1000', after: '2500' }]);

    const secret = await root.put('/api/option/', { key: 'SMTPToken', value: SMTP_SECRET });
    ok(secret);
    const masked = await rowOf(secret, 'option');
    expect(masked.changes).toEqual([{ field: 'value', before: '', after: '••••••WXYZ' }]);
    expect(JSON.stringify(await audit({ subject: 'option' }))).not.toContain(SMTP_SECRET);

    const ratios = await root.put('/api/option/', {
      key: 'GroupRatio',
      value: JSON.stringify({ default: 1, vip: 1.5, svip: 1 }),
    });
    ok(ratios);
    expect((await rowOf(ratios, 'option')).changes).toEqual([{ field: 'vip', before: 1, after: 1.5 }]);
  });

  it('shows a channel key change masked, on create and on edit', async () => {
    const created = await root.post('/api/channel/', { name: 'audited', type: 1, key: KEY_BEFORE, models: ['gpt-4o'] });
    const channel = ok(created);
    const made = await rowOf(created, 'channel');
    expect(made).toMatchObject({ action: 'create', subject_id: String(channel.id) });
    expect(changeOf(made, 'key')).toEqual({ field: 'key', after: '••••••AAAA' });
    expect(changeOf(made, 'name')).toEqual({ field: 'name', after: 'audited' });

    const edited = await root.put('/api/channel/', { id: channel.id, key: KEY_AFTER, name: 'audited-2' });
    ok(edited);
    const row = await rowOf(edited, 'channel');
    expect(changeOf(row, 'key')).toEqual({ field: 'key', before: '••••••AAAA', after: '••••••BBBB' });
    expect(changeOf(row, 'name')).toEqual({ field: 'name', before: 'audited', after: 'audited-2' });
    const everything = JSON.stringify(await Promise.all((await audit({ subject: 'channel' })).items.map((i) => detail(i.id))));
    expect(everything).not.toContain(KEY_BEFORE);
    expect(everything).not.toContain(KEY_AFTER);
  });

  it('writes no row for refusals: invalid input, permission refusals, refusals by the guard', async () => {
    const before = await total();
    // Validation in the handler.
    expect((await root.put('/api/user/', { id: aliceId, quota: -5 })).body.code).toBe('user.quota_negative');
    expect((await root.put('/api/option/', { key: 'SMTPPort', value: 'abc' })).body.success).toBe(false);
    expect((await root.put('/api/channel/', { id: 999999, name: 'ghost' })).body.code).toBe('channel.not_found');
    // A permission refusal inside the handler (an admin may not edit root) and one by the guard.
    expect((await admin.put('/api/user/', { id: root.userId, quota: 1 })).body.success).toBe(false);
    expect((await admin.put('/api/option/', { key: 'QuotaRemindThreshold', value: '1' })).body.code).toBe('auth.forbidden');
    // The edge schema.
    expect((await root.put('/api/user/', { id: 'x' })).body.success).toBe(false);
    expect(await total()).toBe(before);
    const alice = ok(await root.get(`/api/user/${aliceId}`));
    expect(alice.quota).toBe(500000);
  });

  it('records bulk changes as one row per subject under one request id, and a log cleanup by its count', async () => {
    const ids = [];
    for (const name of ['t1', 't2'])
      ids.push(ok(await root.post('/api/channel/', { name, type: 1, key: KEY_BEFORE, models: ['gpt-4o'] })).id);
    ok(await root.post('/api/channel/batch/tag', { ids, tag: 'audit-tag' }));
    const edit = await root.put('/api/channel/tag', { tag: 'audit-tag', priority: 7 });
    ok(edit);
    const { items } = await audit({ request_id: edit.headers.get('x-request-id') ?? '' });
    expect(items.map((i) => i.subject_id).sort()).toEqual(ids.map(String).sort());
    for (const item of items) {
      expect(item).toMatchObject({ action: 'edit_tag', fields: ['priority'], detail: { tag: 'audit-tag' } });
    }

    // A batch create answers its first channel; each channel it made gets its row.
    const batch = await root.post('/api/channel/', {
      name: 'batch',
      type: 1,
      mode: 'batch',
      key: `${KEY_BEFORE}-1\n${KEY_BEFORE}-2`,
      models: ['gpt-4o'],
    });
    ok(batch);
    const made = await audit({ request_id: batch.headers.get('x-request-id') ?? '' });
    expect(made.items.map((i) => i.action)).toEqual(['create', 'create']);
    expect(new Set(made.items.map((i) => i.subject_id)).size).toBe(2);

    const cleanup = await root.delete(`/api/log/?target_timestamp=${Math.floor(Date.now() / 1000) + 10}`);
    const deleted = ok(cleanup);
    const row = await rowOf(cleanup, 'log');
    expect(row).toMatchObject({ action: 'cleanup', subject_id: '', changes: [] });
    expect(row.detail.deleted).toBe(deleted);
  });

  it('names the redemption codes a batch made by id, their keys masked', async () => {
    const res = await root.post('/api/redemption/', { name: 'gift', quota: 1000, count: 2 });
    const keys = ok(res) as string[];
    const { items } = await audit({ request_id: res.headers.get('x-request-id') ?? '' });
    expect(items).toHaveLength(2);
    const rows = await Promise.all(items.map((i) => detail(i.id)));
    for (const row of rows) expect(changeOf(row, 'key').after).toMatch(/^••••••.{4}$/);
    const text = JSON.stringify(rows);
    for (const key of keys) expect(text).not.toContain(key);

    const id = Number(items[0].subject_id);
    const disabled = await root.put('/api/redemption/?status_only=true', { id, status: 2 });
    ok(disabled);
    const row = await rowOf(disabled, 'redemption');
    expect(row).toMatchObject({ action: 'status', subject_id: String(id) });
    expect(row.changes).toEqual([{ field: 'status', before: 1, after: 2 }]);
    const removed = await root.delete(`/api/redemption/${id}`);
    ok(removed);
    const gone = await rowOf(removed, 'redemption');
    expect(gone.action).toBe('delete');
    expect(changeOf(gone, 'name')).toEqual({ field: 'name', before: 'gift' });
  });

  it('escapes LIKE wildcards in the actor filter and refuses the log to admins', async () => {
    expect((await audit({ actor: '%' })).total).toBe(0);
    expect((await audit({ actor: 'r_ot' })).total).toBe(0);
    expect((await audit({ actor: String(root.userId) })).total).toBeGreaterThan(0);
    expect((await admin.get('/api/audit/')).body.code).toBe('auth.forbidden');
    expect((await root.get('/api/audit/999999')).body.code).toBe('audit.not_found');
  });

  it('refuses an admin change it cannot audit, before anything changes', async () => {
    const rename =
      kind === 'mysql' ? sql`rename table audit_logs to audit_logs_off` : sql`alter table audit_logs rename to audit_logs_off`;
    await rename.execute(tg.gateway.ctx.db);
    try {
      const res = await root.put('/api/user/', { id: aliceId, quota: 1 });
      expect(res.body.success).toBe(false);
      expect(ok(await root.get(`/api/user/${aliceId}`)).quota).toBe(500000);
    } finally {
      const back =
        kind === 'mysql' ? sql`rename table audit_logs_off to audit_logs` : sql`alter table audit_logs_off rename to audit_logs`;
      await back.execute(tg.gateway.ctx.db);
    }
  });
});
