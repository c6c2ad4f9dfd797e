import { describe, expect, it } from 'vitest';
import { canAccess, ROLE_ADMIN, ROLE_GUEST, ROLE_ROOT, ROLE_USER } from '../../src/authProvider/canAccess';
import { pathHidesSidebar, visibleMenu } from '../../src/layout/menu';

describe('canAccess', () => {
  it('lets admins and root manage users, not ordinary users or guests', () => {
    expect(canAccess(ROLE_GUEST, { resource: 'user', action: 'list' })).toBe(false);
    expect(canAccess(ROLE_USER, { resource: 'user', action: 'list' })).toBe(false);
    expect(canAccess(ROLE_ADMIN, { resource: 'user', action: 'list' })).toBe(true);
    expect(canAccess(ROLE_ROOT, { resource: 'user', action: 'list' })).toBe(true);
  });

  it('uses the stricter check for system settings and channel delete, edit and copy', () => {
    for (const action of ['delete', 'edit', 'copy', 'tag_edit']) {
      expect(canAccess(ROLE_ADMIN, { resource: 'channel', action })).toBe(false);
      expect(canAccess(ROLE_ROOT, { resource: 'channel', action })).toBe(true);
    }
    expect(canAccess(ROLE_ADMIN, { resource: 'channel', action: 'list' })).toBe(true);
    expect(canAccess(ROLE_ADMIN, { resource: 'setting', action: 'list' })).toBe(false);
    expect(canAccess(ROLE_ROOT, { resource: 'setting', action: 'list' })).toBe(true);
  });

  it('refuses actions on a user of the same or higher level, except for root', () => {
    const admin = { id: 2, role: ROLE_ADMIN };
    const user = { id: 3, role: ROLE_USER };
    expect(canAccess(ROLE_ADMIN, { resource: 'user', action: 'edit', record: admin })).toBe(false);
    expect(canAccess(ROLE_ADMIN, { resource: 'user', action: 'disable', record: user })).toBe(true);
    expect(canAccess(ROLE_ROOT, { resource: 'user', action: 'edit', record: admin })).toBe(true);
  });

  it('never offers to demote, disable or delete the super admin; only root promotes', () => {
    const root = { id: 1, role: ROLE_ROOT };
    for (const action of ['demote', 'disable', 'delete', 'promote']) {
      expect(canAccess(ROLE_ROOT, { resource: 'user', action, record: root })).toBe(false);
    }
    const user = { id: 3, role: ROLE_USER };
    expect(canAccess(ROLE_ADMIN, { resource: 'user', action: 'promote', record: user })).toBe(false);
    expect(canAccess(ROLE_ROOT, { resource: 'user', action: 'promote', record: user })).toBe(true);
    expect(canAccess(ROLE_ROOT, { resource: 'user', action: 'demote', record: user })).toBe(false);
  });

  it('gives deregistered users no actions', () => {
    const gone = { id: 4, role: ROLE_USER, DeletedAt: 1700000000 };
    expect(canAccess(ROLE_ROOT, { resource: 'user', action: 'edit', record: gone })).toBe(false);
    expect(canAccess(ROLE_ROOT, { resource: 'user', action: 'enable', record: gone })).toBe(false);
  });

  it('denies resources it does not know to anyone below root', () => {
    expect(canAccess(ROLE_ADMIN, { resource: 'something_new', action: 'list' })).toBe(false);
  });
});

describe('sidebar items', () => {
  const keys = (role: number, flags = {}) => visibleMenu(role, flags).flatMap((s) => s.items.map((i) => i.key));

  it('shows an ordinary user only the console and personal items', () => {
    expect(keys(ROLE_USER)).toEqual(['playground', 'token', 'log', 'topup', 'personal']);
  });

  it('keeps channel, user and settings items for root; an admin sees the rest of the admin section', () => {
    const admin = keys(ROLE_ADMIN);
    expect(admin).toContain('redemption');
    // The model catalogue: models, then vendors, just before the redemption codes.
    expect(admin.slice(admin.indexOf('model'), admin.indexOf('redemption') + 1)).toEqual(['model', 'vendor', 'redemption']);
    expect(admin).toContain('channel_statistics');
    expect(admin).not.toContain('channel');
    expect(admin).not.toContain('user');
    expect(admin).not.toContain('setting');
    expect(keys(ROLE_ROOT)).toEqual(expect.arrayContaining(['channel', 'channel_new', 'user', 'user_new', 'setting']));
  });

  it('hides dashboard, drawing and task entries unless their flags are on', () => {
    expect(keys(ROLE_USER)).not.toContain('dashboard');
    expect(keys(ROLE_USER, { enable_data_export: true, enable_drawing: true, enable_task: true })).toEqual(
      expect.arrayContaining(['dashboard', 'midjourney', 'task']),
    );
  });
});

describe('sidebar visibility by path', () => {
  it('is hidden on home, chat and setup, shown elsewhere', () => {
    for (const path of ['/', '/chat', '/chat/2', '/chat2link', '/setup']) expect(pathHidesSidebar(path), path).toBe(true);
    for (const path of ['/user', '/user/edit/3', '/personal', '/token', '/chatter'])
      expect(pathHidesSidebar(path), path).toBe(false);
  });
});
