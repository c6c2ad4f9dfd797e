/**
 * Task statuses and actions of other platforms (the drawing statuses plus QUEUED, UNKNOWN
 * and '' while submitting; actions MUSIC and LYRICS) with their i18n keys under
 * `resources.task` and label colours; `satisfies` holds them to the server's lists.
 */
import type { TASK_ACTIONS, TASK_STATUSES } from '../../../server/tasks/list-schemas';
import type { Label } from '../midjourney/labels';

export const TASK_STATUS_LABELS = {
  NOT_START: { key: 'not_start', color: 'default' },
  SUBMITTED: { key: 'submitted', color: 'warning' },
  QUEUED: { key: 'queued', color: 'warning' },
  IN_PROGRESS: { key: 'in_progress', color: 'info' },
  SUCCESS: { key: 'success', color: 'success' },
  FAILURE: { key: 'failure', color: 'error' },
  UNKNOWN: { key: 'unknown', color: 'default' },
  '': { key: 'submitting', color: 'default' },
} as const satisfies Record<(typeof TASK_STATUSES)[number], Label>;

export const TASK_ACTION_LABELS = {
  MUSIC: { key: 'music', color: 'primary' },
  LYRICS: { key: 'lyrics', color: 'secondary' },
  VIDEO: { key: 'video', color: 'info' },
} as const satisfies Record<(typeof TASK_ACTIONS)[number], Label>;
