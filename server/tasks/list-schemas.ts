/**
 * The shapes of the console's task lists — GET /api/mj/ and /api/mj/self (drawing tasks),
 * GET /api/task/ and /api/task/self (music and other platform tasks) — shared by the server
 * routes and the console's Drawing log and Task log screens.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, Int53, Page } from '../http/schemas.js';

/** Midjourney actions the console names; submissions may also be VIDEO or EDITS (midjourney/actions.ts). */
export const MJ_ACTIONS = [
  'IMAGINE',
  'UPSCALE',
  'VARIATION',
  'HIGH_VARIATION',
  'LOW_VARIATION',
  'PAN',
  'DESCRIBE',
  'BLEND',
  'UPLOAD',
  'SHORTEN',
  'REROLL',
  'INPAINT',
  'ZOOM',
  'CUSTOM_ZOOM',
  'MODAL',
  'SWAP_FACE',
] as const;

/** Midjourney submit codes: 1 submitted, 21 waiting, 22 duplicate, 0 not submitted. */
export const MJ_CODES = { notSubmitted: 0, submitted: 1, waiting: 21, duplicate: 22 } as const;

/** Midjourney task statuses, as midjourney-proxy reports them. */
export const MJ_STATUSES = ['NOT_START', 'SUBMITTED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'MODAL'] as const;

/** Other platforms' task statuses: the drawing ones plus QUEUED, UNKNOWN and '' (still submitting). */
export const TASK_STATUSES = ['NOT_START', 'SUBMITTED', 'QUEUED', 'IN_PROGRESS', 'SUCCESS', 'FAILURE', 'UNKNOWN', ''] as const;

/** Suno actions, and videos. */
export const TASK_ACTIONS = ['MUSIC', 'LYRICS', 'VIDEO'] as const;

/** The fields every task list item starts with: its row id, times, owner and channel. */
const listed = {
  id: Type.Integer(),
  /** Unix seconds. */
  created_at: Type.Integer(),
  submit_time: Type.Integer(),
  start_time: Type.Integer(),
  /** 0 while unfinished. */
  finish_time: Type.Integer(),
  user_id: Type.Integer(),
  /** The owner's name; admins only (empty for others). */
  username: Type.String(),
  /** Admins only (0 for others). */
  channel_id: Type.Integer(),
  /** The channel's name; admins only (empty for others). */
  channel_name: Type.String(),
};

/** One drawing task. Its submit, start and finish times are Unix milliseconds, as the Midjourney proxy reports them. */
export const MjItem = Type.Object({
  ...listed,
  action: Type.String(),
  mj_id: Type.String(),
  /** Submit code, see MJ_CODES. */
  code: Type.Integer(),
  status: Type.String(),
  /** A percent string such as "100%". */
  progress: Type.String(),
  /** The gateway's own /mj/image/{mj_id} address when MjForwardUrlEnabled is on. */
  image_url: Type.String(),
  prompt: Type.String(),
  prompt_en: Type.String(),
  fail_reason: Type.String(),
});
export type MjItem = Static<typeof MjItem>;

/** One task of another platform (Suno). Times are Unix seconds. */
export const TaskItem = Type.Object({
  ...listed,
  platform: Type.String(),
  action: Type.String(),
  task_id: Type.String(),
  status: Type.String(),
  progress: Type.String(),
  fail_reason: Type.String(),
});
export type TaskItem = Static<typeof TaskItem>;

/**
 * `total` counts at most TASK_COUNT_WINDOW rows past the requested page; `total_capped` is true
 * when it stopped there (at least `total` rows match; paging further raises it).
 */
export const MjPage = Type.Composite([Page(MjItem), Type.Object({ total_capped: Type.Boolean() })]);
export type MjPage = Static<typeof MjPage>;
export const TaskPage = Type.Composite([Page(TaskItem), Type.Object({ total_capped: Type.Boolean() })]);
export type TaskPage = Static<typeof TaskPage>;

/** How many matching rows past the requested page `total` counts at most. */
export const TASK_COUNT_WINDOW = 10_000;

/**
 * A timestamp bound. Unix seconds, like every time the console sends; on the drawing list, a value
 * of 10^11 or more is read as milliseconds (what older consoles sent for submit_time).
 */
const Timestamp = Int53({ minimum: 0 });

const common = {
  p: Type.Optional(Type.Integer({ minimum: 1 })),
  page_size: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 })),
  /** Admin only: one channel's tasks (ignored on /self). */
  channel_id: Type.Optional(Type.Integer({ minimum: 0 })),
  /** Admin only: one user's tasks, by exact username (ignored on /self). */
  username: Type.Optional(Type.String({ maxLength: 64 })),
  /** Inclusive bounds on submit_time. */
  start_timestamp: Type.Optional(Timestamp),
  end_timestamp: Type.Optional(Timestamp),
};

export const MjListQuery = Type.Object({
  ...common,
  /** Exact task id. */
  mj_id: Type.Optional(Type.String({ maxLength: 191 })),
});
export type MjListQuery = Static<typeof MjListQuery>;

export const TaskListQuery = Type.Object({
  ...common,
  /** Exact task id. */
  task_id: Type.Optional(Type.String({ maxLength: 191 })),
});
export type TaskListQuery = Static<typeof TaskListQuery>;

export const MjPageAnswer = Envelope(MjPage);
export const TaskPageAnswer = Envelope(TaskPage);
