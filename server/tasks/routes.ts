/**
 * The console's task lists: /api/mj/ (drawing tasks) and /api/task/ (music and other platforms'
 * tasks). Admins read every user's rows and may narrow them by channel and user; everyone reads
 * their own at /api/mj/self and /api/task/self, where the channel and user filters are ignored and
 * the channel is not shown. Both lists only read the tables the task relay writes.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireAdmin, requireUser } from '../auth/guard.js';
import { ROLE_ADMIN } from '../auth/roles.js';
import type { User } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { findUserIdByUsername, usernamesOf } from '../users/repository.js';
import { listMidjourneys, listTasks, type Slice, type TaskListFilter } from './list-repository.js';
import { MjListQuery, MjPageAnswer, TaskListQuery, TaskPageAnswer } from './list-schemas.js';
import { toMjItem, toTaskItem, type ViewContext } from './list-view.js';
import videoConsoleRoutes from './video/console-routes.js';

/** Drawing tasks keep submit_time in ms; a bound this large was already sent in ms. */
const MS_FROM = 100_000_000_000;

/** A bound in seconds (or already ms) as ms; an end second covers its whole second. */
function toMs(value: number | undefined, end: boolean): number | undefined {
  if (!value) return undefined;
  if (value >= MS_FROM) return value;
  return end ? value * 1000 + 999 : value * 1000;
}

type Query = { channel_id?: number; username?: string; start_timestamp?: number; end_timestamp?: number };

export default async function taskListRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  await base.register(videoConsoleRoutes);
  const ctx = app.ctx;
  const { db, dbKind } = ctx;

  /**
   * The filter of a list call; `null` when it can match nothing (an unknown username). `self`:
   * only the caller's rows, channel and username ignored. `ms`: submit_time is in milliseconds.
   */
  async function filterOf(query: Query, taskId: string | undefined, user: User, self: boolean, ms: boolean) {
    const start = ms ? toMs(query.start_timestamp, false) : query.start_timestamp;
    const end = ms ? toMs(query.end_timestamp, true) : query.end_timestamp;
    if (start && end && start > end) throw fail('log.time_range_reversed');
    const filter: TaskListFilter = { taskId: taskId?.trim(), start, end };
    if (self) {
      filter.userId = user.id;
      return filter;
    }
    filter.channelId = query.channel_id;
    const username = query.username?.trim();
    if (username) {
      const id = await findUserIdByUsername(db, username);
      if (id === undefined) return null;
      filter.userId = id;
    }
    return filter;
  }

  /** How the rows are shown to `user`; admins get the owners' names. */
  async function viewOf(user: User, rows: { user_id: number }[]): Promise<ViewContext> {
    const admin = user.role >= ROLE_ADMIN;
    const names = admin
      ? await usernamesOf(
          db,
          rows.map((r) => r.user_id),
        )
      : new Map<number, string>();
    const forward = ctx.options.bool('MjForwardUrlEnabled') ? ctx.options.string('ServerAddress').replace(/\/+$/, '') : '';
    return {
      admin,
      username: (id) => names.get(id),
      channelName: (id) => ctx.channels.get(id)?.name,
      forwardBase: forward,
    };
  }

  /** One page of a list for `user`: the filter of the query, the rows `list` reads, each shown through `show`. */
  async function listPage<R extends { user_id: number }, I>(
    user: User,
    query: Query & { p?: number; page_size?: number },
    taskId: string | undefined,
    self: boolean,
    ms: boolean,
    list: (filter: TaskListFilter, limit: number, offset: number) => Promise<Slice<R>>,
    show: (row: R, view: ViewContext) => I,
  ) {
    const page = pageParams(query);
    const filter = await filterOf(query, taskId, user, self, ms);
    const slice: Slice<R> = filter ? await list(filter, page.pageSize, page.offset) : { rows: [], total: 0, capped: false };
    const view = await viewOf(user, slice.rows);
    return ok({
      items: slice.rows.map((row) => show(row, view)),
      total: slice.total,
      page: page.page,
      page_size: page.pageSize,
      total_capped: slice.capped,
    });
  }

  const lists = (prefix: string) => [
    { url: prefix, guard: requireAdmin, self: false },
    { url: `${prefix}/self`, guard: requireUser, self: true },
  ];
  for (const { url: prefix, guard, self } of lists('/api/mj')) {
    for (const url of [prefix, `${prefix}/`]) {
      app.get(url, { onRequest: guard, schema: { querystring: MjListQuery, response: { 200: MjPageAnswer } } }, (request) =>
        listPage(
          currentUser(request),
          request.query,
          request.query.mj_id,
          self,
          true,
          (filter, limit, offset) => listMidjourneys(db, dbKind, filter, limit, offset),
          toMjItem,
        ),
      );
    }
  }
  for (const { url: prefix, guard, self } of lists('/api/task')) {
    for (const url of [prefix, `${prefix}/`]) {
      app.get(url, { onRequest: guard, schema: { querystring: TaskListQuery, response: { 200: TaskPageAnswer } } }, (request) =>
        listPage(
          currentUser(request),
          request.query,
          request.query.task_id,
          self,
          false,
          (filter, limit, offset) => listTasks(db, dbKind, filter, limit, offset),
          toTaskItem,
        ),
      );
    }
  }
}
