/**
 * What an admin's user lists show of the users above or beside them: root's and peer admins'
 * e-mail, third-party ids and settings are blank in GET /api/user/, /api/user/search and
 * /api/user/query; users the admin manages, and the admin's own row, show in full; root sees all.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { usersFixture } from '../helpers/users-fixture.js';
import type { ApiClient } from '../helpers/gateway.js';

const PERSONAL = ['email', 'github_id', 'oidc_id', 'wechat_id', 'telegram_id', 'linux_do_id'] as const;

describe('user lists hide what the caller may not manage', () => {
  const f = usersFixture('sqlite');
  let ids: { root: number; admin: number; peer: number; user: number };

  /** Gives the user an address, a setting and an id at every provider, all containing `tag`. */
  async function personalise(id: number, tag: string): Promise<void> {
    await f
      .db()
      .updateTable('users')
      .set({
        email: `${tag}@example.com`,
        github_id: `gh-${tag}`,
        oidc_id: `oidc-${tag}`,
        wechat_id: `wx-${tag}`,
        telegram_id: `tg-${tag}`,
        linux_do_id: `ld-${tag}`,
        setting: JSON.stringify({ notify_type: 'email', notification_email: `${tag}-notify@example.com` }),
      })
      .where('id', '=', id)
      .execute();
  }

  beforeAll(async () => {
    const user = await f.newUser();
    ids = { root: f.root.userId!, admin: f.admin.userId!, peer: f.admin2.userId!, user: user.id };
    for (const [tag, id] of Object.entries(ids)) await personalise(id, tag);
  });

  /** Every row of the three list endpoints, by user id. */
  async function rows(caller: ApiClient): Promise<Array<Map<number, Record<string, unknown>>>> {
    const list = await caller.get('/api/user/?p=1&page_size=100');
    const search = await caller.get('/api/user/search?keyword=&p=1&page_size=100');
    const query = await caller.get('/api/user/query?keyword=');
    for (const res of [list, search, query]) expect(res.body.success, res.body.message).toBe(true);
    const byId = (items: Array<Record<string, unknown>>) => new Map(items.map((u) => [u.id as number, u]));
    return [byId(list.body.data.items), byId(search.body.data.items), byId(query.body.data)];
  }

  const shown = (row: Record<string, unknown> | undefined, tag: string) => {
    for (const field of PERSONAL) expect(String(row?.[field]), `${tag} ${field}`).toContain(tag);
    expect(String(row?.setting)).toContain(`${tag}-notify`);
  };
  const hidden = (row: Record<string, unknown> | undefined, tag: string) => {
    expect(row?.username, `${tag} is listed`).toBeTruthy();
    for (const field of PERSONAL) expect(row?.[field], `${tag} ${field}`).toBe('');
    expect(JSON.stringify(row)).not.toContain(tag === 'root' ? 'root@' : `${tag}@`);
  };

  it("an admin sees their own and their users' details, not root's or a peer admin's", async () => {
    for (const answer of await rows(f.admin)) {
      hidden(answer.get(ids.root), 'root');
      hidden(answer.get(ids.peer), 'peer');
      shown(answer.get(ids.admin), 'admin');
      shown(answer.get(ids.user), 'user');
    }
    // The single-user read refuses them outright, as before.
    expect((await f.admin.get(`/api/user/${ids.root}`)).body).toMatchObject({ success: false, code: 'user.read_denied' });
  });

  it('root sees everyone in full', async () => {
    for (const answer of await rows(f.root)) {
      for (const [tag, id] of Object.entries(ids)) shown(answer.get(id), tag);
    }
  });
});
