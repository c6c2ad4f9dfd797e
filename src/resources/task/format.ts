/**
 * Pure helpers of the Drawing log and Task log screens: default time windows, durations, progress
 * and which image addresses may be shown.
 */

const HOUR = 3600;
const DAY = 24 * HOUR;

export type TimeRange = {
  start_timestamp: number;
  end_timestamp: number;
};

/** Drawing log: the last 30 days through one hour ahead, Unix seconds. */
export function drawingTimeRange(now = new Date()): TimeRange {
  const seconds = Math.floor(now.getTime() / 1000);
  return { start_timestamp: seconds - 30 * DAY, end_timestamp: seconds + HOUR };
}

/** Task log: from the start of today through one hour ahead, Unix seconds. */
export function taskTimeRange(now = new Date()): TimeRange {
  const midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate());
  return { start_timestamp: Math.floor(midnight.getTime() / 1000), end_timestamp: Math.floor(now.getTime() / 1000) + HOUR };
}

/** Seconds from submission to the end, or null while unfinished (either time 0). */
export function durationSeconds(submit: number, finish: number, unitMs: number): number | null {
  if (!submit || !finish) return null;
  return Math.max(0, (finish - submit) / unitMs);
}

/** Spec 9: a task that took over 60 s shows red, else green. */
export function durationIsSlow(seconds: number): boolean {
  return seconds > 60;
}

/** A duration with at most one decimal. */
export function formatSeconds(seconds: number): string {
  return String(Number(seconds.toFixed(1)));
}

/** "45%" (or "45") as a number from 0 to 100; null when there is no progress to show. */
export function progressValue(progress: string | null | undefined): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*%?\s*$/.exec(progress ?? '');
  if (!match) return null;
  return Math.min(100, Math.max(0, Number(match[1])));
}

/** Only http(s) and same-site addresses are shown as images or links; anything else (javascript: …) is not. */
export function safeImageUrl(url: string | null | undefined): string | null {
  const value = (url ?? '').trim();
  if (/^https?:\/\//i.test(value)) return value;
  if (value.startsWith('/') && !value.startsWith('//')) return value;
  return null;
}

/** Milliseconds as Unix seconds (the drawing tasks' times are in ms). */
export function msToUnixSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}
