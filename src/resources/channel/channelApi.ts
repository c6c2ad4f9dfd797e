/**
 * The channel calls made outside the dataProvider: row actions, toolbar actions, tag operations
 * and model lookups. Each returns the answer's data or throws an ApiError with the server message.
 */
import { api, refusalError, request } from '../../api/client';
import { modelNames } from '../../api/channelMethods';
import type { BalanceSweepView, ChannelBalanceAnswer, ChannelTestAnswer } from '../../../server/channels/health-routes';
import type { FixResult } from '../../../server/channels/schemas';
import type { ChannelView } from './types';
import type { ManageKeysBody } from '../../../server/channels/keys/routes';

const BASE = '/api/channel';

/** A refusal, translated by its code like every other. */
function failIfRefused(answer: {
  success: boolean;
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}): void {
  if (!answer.success) throw refusalError(answer);
}

/** Tests one channel (with one of its models, or its test model); answers the seconds it took. */
export async function testChannel(id: number, model?: string): Promise<number> {
  const query = model ? `?model=${encodeURIComponent(model)}` : '';
  // The answer carries `time` beside the envelope's fields as well as in `data`.
  const answer: ChannelTestAnswer = await request<ChannelTestAnswer['data']>('GET', `${BASE}/test/${id}${query}`);
  failIfRefused(answer);
  return answer.data?.time ?? answer.time ?? 0;
}

/** Starts testing every channel; the server answers at once and tests in the background. */
export function testAllChannels(): Promise<unknown> {
  return api.get(`${BASE}/test`);
}

export async function updateBalance(id: number): Promise<number> {
  const answer: ChannelBalanceAnswer = await request<ChannelBalanceAnswer['data']>('GET', `${BASE}/update_balance/${id}/`);
  failIfRefused(answer);
  return answer.data?.balance ?? answer.balance ?? 0;
}

/** Reads the balance of every enabled channel; answers how many were updated and how many failed. */
export function updateAllBalances(): Promise<BalanceSweepView> {
  return api.get<BalanceSweepView>(`${BASE}/update_balance`);
}

/** Quick edits an admin may make: `{id, status}`, `{id, priority}` or `{id, weight}`. */
export function quickUpdate(body: { id: number; status?: number; priority?: number; weight?: number }): Promise<ChannelView> {
  return api.put<ChannelView>(`${BASE}/`, body);
}

export type KeyAction = ManageKeysBody['action'];

/** Enables or disables one key of a multi-key channel (by position), or enables all; answers the channel. */
export function manageKeys(channelId: number, action: KeyAction, index?: number): Promise<ChannelView> {
  const body: ManageKeysBody = { channel_id: channelId, action, ...(index === undefined ? {} : { key_index: index }) };
  return api.post<ChannelView>(`${BASE}/multi_key/manage`, body);
}

export function copyChannel(id: number): Promise<ChannelView> {
  return api.post<ChannelView>(`${BASE}/copy/${id}`);
}

export function deleteChannel(id: number): Promise<unknown> {
  return api.delete(`${BASE}/${id}/`);
}

export function deleteDisabledChannels(): Promise<number> {
  return api.delete<number>(`${BASE}/disabled`);
}

export function deleteChannels(ids: number[]): Promise<number> {
  return api.post<number>(`${BASE}/batch`, { ids });
}

/** Rebuilds the abilities table; answers how many channels were rebuilt and how many failed. */
export function fixChannels(): Promise<FixResult> {
  return api.post<FixResult>(`${BASE}/fix`);
}

export function tagChannels(ids: number[], tag: string): Promise<number> {
  return api.post<number>(`${BASE}/batch/tag`, { ids, tag });
}

export function setTagEnabled(tag: string, enabled: boolean): Promise<number> {
  return api.post<number>(`${BASE}/tag/${enabled ? 'enabled' : 'disabled'}`, { tag });
}

/** PUT /api/channel/tag: only the fields given change on every channel of `tag`. */
export interface TagEdit {
  tag: string;
  new_tag?: string;
  model_mapping?: string;
  groups?: string;
  models?: string;
  priority?: number;
  weight?: number;
}

export function editTag(body: TagEdit): Promise<number> {
  return api.put<number>(`${BASE}/tag`, body);
}

/** The upstream's models of a saved channel. */
export async function fetchModelsOf(id: number): Promise<string[]> {
  return modelNames(await api.get<unknown>(`${BASE}/fetch_models/${id}`));
}

/** The upstream's models for a channel being created, from what the form holds. */
export async function fetchModelsFor(body: { base_url: string; type: number; key: string }): Promise<string[]> {
  return modelNames(await api.post<unknown>(`${BASE}/fetch_models`, body));
}

export const CHANNEL_MODELS_KEY = 'channel_models';

/** Channel type → its provider's models as last loaded (localStorage `channel_models`). */
export function storedTypeModels(): Record<string, string[]> {
  try {
    const raw = localStorage.getItem(CHANNEL_MODELS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : null;
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, string[]>) : {};
  } catch {
    return {};
  }
}

export async function groupNames(): Promise<string[]> {
  return (await api.get<string[] | null>('/api/group/')) ?? [];
}
