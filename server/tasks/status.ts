/** Task row statuses the gateway itself relies on (the rest are the upstream's words, stored as said). */
export const STATUS_SUCCESS = 'SUCCESS';
export const STATUS_FAILURE = 'FAILURE';
/** Statuses a task never leaves. */
export const FINISHED: readonly string[] = [STATUS_SUCCESS, STATUS_FAILURE];

/** The task tables: drawing tasks (Midjourney) and other platforms' tasks (Suno). */
export type TaskTable = 'midjourneys' | 'tasks';
