/**
 * Every change an admin can make is audited: a walk of the route table that fails for a mutating
 * route guarded for admins or root without an audit declaration, so a route added later cannot
 * skip the audit silently. A route that changes nothing (it only fetches) says so, with its reason.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAuditSpec, AUDIT_SUBJECTS } from '../../server/audit/types.js';
import { ROLE_ADMIN } from '../../server/auth/roles.js';
import { startTestGateway, type TestGateway } from '../helpers/gateway.js';

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

describe('audit declarations of the route table', () => {
  let tg: TestGateway;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
  });
  afterAll(async () => tg?.close());

  const adminWrites = () => tg.gateway.routes.filter((r) => MUTATING.has(r.method) && r.role >= ROLE_ADMIN);

  it('finds the admin routes by their guards', () => {
    const names = adminWrites().map((r) => `${r.method} ${r.url}`);
    // The walk sees the routes it must: if guards stopped being recognised, it would pass vacuously.
    expect(names).toEqual(expect.arrayContaining(['PUT /api/user/', 'PUT /api/option/', 'DELETE /api/channel/:id']));
    expect(names.length).toBeGreaterThan(20);
  });

  it('has an audit declaration (or a reasoned exemption) on every mutating admin route', () => {
    const missing = adminWrites()
      .filter((r) => r.audit === undefined)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing, 'admin routes that change things without config.audit').toEqual([]);
  });

  it('declares a known subject, and a way to name what changed, on every audited route', () => {
    const wrong: string[] = [];
    for (const route of tg.gateway.routes) {
      const audit = route.audit;
      if (audit === undefined) continue;
      const name = `${route.method} ${route.url}`;
      if (route.role < ROLE_ADMIN) wrong.push(`${name}: audited but not guarded for admins`);
      if (!isAuditSpec(audit)) {
        if (audit.exempt.trim().length < 10) wrong.push(`${name}: an exemption needs its reason`);
        continue;
      }
      if (!AUDIT_SUBJECTS.includes(audit.subject)) wrong.push(`${name}: unknown subject ${String(audit.subject)}`);
      if (!audit.target && !audit.created && !audit.detail) wrong.push(`${name}: names no subject and no detail`);
    }
    expect(wrong).toEqual([]);
  });
});
