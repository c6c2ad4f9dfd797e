/**
 * Drawing task actions, submit codes and statuses with their i18n keys under
 * `resources.midjourney` and label colours. Kept here rather than imported so the console bundle
 * does not pull in the server's schema library; `satisfies` holds them to the server's lists.
 */
import type { MJ_ACTIONS, MJ_CODES, MJ_STATUSES } from '../../../server/tasks/list-schemas';

export type LabelColor = 'default' | 'primary' | 'secondary' | 'info' | 'success' | 'warning' | 'error';

export interface Label {
  key: string;
  color: LabelColor;
}

export const MJ_ACTION_LABELS = {
  IMAGINE: { key: 'imagine', color: 'primary' },
  UPSCALE: { key: 'upscale', color: 'warning' },
  VARIATION: { key: 'variation', color: 'secondary' },
  HIGH_VARIATION: { key: 'high_variation', color: 'secondary' },
  LOW_VARIATION: { key: 'low_variation', color: 'secondary' },
  PAN: { key: 'pan', color: 'info' },
  DESCRIBE: { key: 'describe', color: 'warning' },
  BLEND: { key: 'blend', color: 'success' },
  UPLOAD: { key: 'upload', color: 'default' },
  SHORTEN: { key: 'shorten', color: 'error' },
  REROLL: { key: 'reroll', color: 'primary' },
  INPAINT: { key: 'inpaint', color: 'secondary' },
  ZOOM: { key: 'zoom', color: 'info' },
  CUSTOM_ZOOM: { key: 'custom_zoom', color: 'info' },
  MODAL: { key: 'modal', color: 'default' },
  SWAP_FACE: { key: 'swap_face', color: 'success' },
} as const satisfies Record<(typeof MJ_ACTIONS)[number], Label>;

/** Submit codes: 1 submitted, 21 waiting, 22 duplicate, 0 not submitted. */
export const MJ_CODE_LABELS: Record<number, Label> = {
  1: { key: 'submitted', color: 'success' },
  21: { key: 'waiting', color: 'info' },
  22: { key: 'duplicate', color: 'warning' },
  0: { key: 'not_submitted', color: 'default' },
} satisfies Record<(typeof MJ_CODES)[keyof typeof MJ_CODES], Label>;

export const MJ_STATUS_LABELS = {
  NOT_START: { key: 'not_start', color: 'default' },
  SUBMITTED: { key: 'submitted', color: 'warning' },
  IN_PROGRESS: { key: 'in_progress', color: 'info' },
  SUCCESS: { key: 'success', color: 'success' },
  FAILURE: { key: 'failure', color: 'error' },
  MODAL: { key: 'modal', color: 'warning' },
} as const satisfies Record<(typeof MJ_STATUSES)[number], Label>;

/** The label of a value, or null for one the table does not hold. */
export function labelOf(table: Record<string | number, Label>, value: string | number): Label | null {
  return Object.prototype.hasOwnProperty.call(table, value) ? (table[value] ?? null) : null;
}
