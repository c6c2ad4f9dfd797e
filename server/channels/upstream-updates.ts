/**
 * Upstream model-update detection, the pure half. A channel opts in with
 * `upstream_model_update_check_enabled` in its other settings (the `settings` JSON, where the
 * family's console writes it); detection keeps what it found there too, under the family's names:
 * `…_last_detected_models` (offered, not yet on the channel), `…_last_removed_models` (on the
 * channel, no longer offered), `…_ignored_models` (never offered again) and `…_last_check_time`.
 */
import { splitList } from './input.js';

export const CHECK_ENABLED = 'upstream_model_update_check_enabled';
export const AUTO_SYNC_ENABLED = 'upstream_model_update_auto_sync_enabled';
const LAST_CHECK = 'upstream_model_update_last_check_time';
const DETECTED = 'upstream_model_update_last_detected_models';
const REMOVED = 'upstream_model_update_last_removed_models';
const IGNORED = 'upstream_model_update_ignored_models';

export type Settings = Record<string, unknown>;

export function parseSettings(text: string | null | undefined): Settings {
  try {
    const value: unknown = JSON.parse(text || '{}');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Settings) : {};
  } catch {
    return {};
  }
}

/** Trimmed, non-empty, each once, in order. */
export function names(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return splitList(value.filter((v): v is string => typeof v === 'string'));
}

const minus = (list: string[], drop: string[]) => list.filter((m) => !drop.includes(m));
const within = (list: string[], allowed: string[]) => names(list).filter((m) => allowed.includes(m));

export interface Pending {
  add: string[];
  remove: string[];
}

export const pendingOf = (settings: Settings): Pending => ({ add: names(settings[DETECTED]), remove: names(settings[REMOVED]) });
export const checkEnabled = (settings: Settings): boolean => settings[CHECK_ENABLED] === true;
export const lastCheckTime = (settings: Settings): number =>
  typeof settings[LAST_CHECK] === 'number' ? (settings[LAST_CHECK] as number) : 0;

/** The model mapping's sources (aliases the upstream never lists) and targets (upstream names in use). */
function mappingOf(text: string | null): { sources: string[]; targets: string[] } {
  const mapping = parseSettings(text);
  const pairs = Object.entries(mapping).filter(([k, v]) => k.trim() !== '' && typeof v === 'string' && v.trim() !== '');
  return { sources: pairs.map(([k]) => k.trim()), targets: pairs.map(([, v]) => (v as string).trim()) };
}

/**
 * What the upstream offers that the channel lacks (neither a model nor a mapping target, nor
 * ignored), and what the channel has that the upstream no longer lists (mapping sources are aliases
 * and stay).
 */
export function detectChanges(
  channelModels: string,
  modelMapping: string | null,
  upstream: string[],
  settings: Settings,
): Pending {
  const local = splitList(channelModels);
  const offered = splitList(upstream);
  const { sources, targets } = mappingOf(modelMapping);
  const covered = [...local, ...targets, ...names(settings[IGNORED])];
  return { add: minus(offered, covered), remove: local.filter((m) => !offered.includes(m) && !sources.includes(m)) };
}

/** The settings after a detection: what was found, and when. */
export function detectedSettings(settings: Settings, found: Pending, now: number): Settings {
  return { ...settings, [DETECTED]: found.add, [REMOVED]: found.remove, [LAST_CHECK]: now };
}

/** A check that could not read the upstream still records when it ran. */
export const checkedSettings = (settings: Settings, now: number): Settings => ({ ...settings, [LAST_CHECK]: now });

export interface Selection {
  add_models?: string[] | undefined;
  remove_models?: string[] | undefined;
  ignore_models?: string[] | undefined;
}

export interface Applied {
  added: string[];
  removed: string[];
  ignored: string[];
  remaining: string[];
  remainingRemove: string[];
  models: string[];
  settings: Settings;
}

/**
 * Applies a choice among the pending changes: only pending models count; a model both added and
 * removed is added; ignored models are kept out of later detections (adding one un-ignores it).
 */
export function applySelection(channelModels: string, settings: Settings, selection: Selection, now: number): Applied {
  const pending = pendingOf(settings);
  const added = within(selection.add_models ?? [], pending.add);
  const ignored = minus(within(selection.ignore_models ?? [], pending.add), added);
  const removed = minus(within(selection.remove_models ?? [], pending.remove), added);
  const local = splitList(channelModels);
  const models = minus([...local, ...minus(added, local)], removed);
  const remaining = minus(pending.add, [...added, ...ignored]);
  const remainingRemove = minus(pending.remove, removed);
  const nextIgnored = minus([...names(settings[IGNORED]), ...minus(ignored, names(settings[IGNORED]))], added);
  return {
    added,
    removed,
    ignored,
    remaining,
    remainingRemove,
    models,
    settings: { ...settings, [IGNORED]: nextIgnored, [DETECTED]: remaining, [REMOVED]: remainingRemove, [LAST_CHECK]: now },
  };
}
