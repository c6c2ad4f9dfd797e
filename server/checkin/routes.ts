/**
 * The family's daily check-in: GET /api/user/checkin?month=YYYY-MM (the month's check-ins and
 * totals) and POST /api/user/checkin (today's award, a random whole quota between
 * checkin_setting.min_quota and max_quota, credited with a log row). Off unless
 * checkin_setting.enabled; the human check applies when Turnstile is on. "Today" is the server's
 * local date.
 */
import { randomInt } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { turnstileCheck } from '../accounts/turnstile.js';
import { nowSeconds } from '../db/index.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { clientIp } from '../http/client-ip.js';
import { logText } from '../logs/messages.js';
import type { OptionStore } from '../options/store.js';
import { publishUserChange } from '../users/user-cache.js';
import { checkIn, checkinStats } from './repository.js';

const pad = (n: number) => String(n).padStart(2, '0');
/** YYYY-MM-DD in the server's time zone. */
export const localDate = (d = new Date()) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The award range: never negative, and an inverted pair (saved one key at a time) swapped. */
export function awardRange(options: OptionStore): [number, number] {
  const a = Math.max(0, options.number('checkin_setting.min_quota'));
  const b = Math.max(0, options.number('checkin_setting.max_quota'));
  return a <= b ? [a, b] : [b, a];
}

const MonthQuery = Type.Object({ month: Type.Optional(Type.String({ maxLength: 7 })) });

export default async function checkinRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const { db, dbKind, options } = app.ctx;
  const assertEnabled = () => {
    if (!options.bool('checkin_setting.enabled')) throw fail('checkin.disabled');
  };

  app.get('/api/user/checkin', { onRequest: requireUser, schema: { querystring: MonthQuery } }, async (request) => {
    assertEnabled();
    const today = localDate();
    const month = request.query.month || today.slice(0, 7);
    if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(month)) throw fail('checkin.bad_month');
    const [min, max] = awardRange(options);
    const stats = await checkinStats(db, currentUser(request).id, month, today);
    return ok({ enabled: true, min_quota: min, max_quota: max, stats });
  });

  app.post('/api/user/checkin', { onRequest: requireUser, preHandler: turnstileCheck }, async (request) => {
    assertEnabled();
    const user = currentUser(request);
    const [min, max] = awardRange(options);
    const quota = min === max ? min : randomInt(min, max + 1);
    const date = localDate();
    const text = logText(options, 'checkin', { quota });
    const done = await checkIn(db, dbKind, {
      userId: user.id,
      username: user.username,
      date,
      quota,
      now: nowSeconds(),
      text,
      ip: clientIp(request),
    });
    if (!done) throw fail('checkin.already');
    publishUserChange(app.ctx.bus, user.id);
    return ok({ quota_awarded: quota, checkin_date: date }, '签到成功');
  });
}
