/**
 * The channel calls besides CRUD, as custom dataProvider methods (spread into channelMethods):
 * row actions (test, balance, quick edits, keys, copy, delete), toolbar actions, tag operations and
 * the upstream's model lists. Each answers the data or throws an ApiError with the server message.
 */
import type { BalanceSweepView, ChannelBalanceAnswer, ChannelTestAnswer } from '../../server/channels/health-routes';
import type { ManageKeysBody } from '../../server/channels/keys/routes';
import type { ChannelView, FixResult } from '../../server/channels/schemas';
import { api, refusalError, request } from './client';
import { modelNames } from './modelNames';

const BASE = '/api/channel';

export type KeyAction = ManageKeysBody['action'];

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

/** A refusal, translated by its code like every other. */
function failIfRefused(answer: {
  success: boolean;
  message: string;
  code?: string;
  params?: Record<string, string | number>;
}): void {
  if (!answer.success) throw refusalError(answer);
}

export const channelActions = {
  /** Tests one channel (with one of its models, or its test model); answers the seconds it took. */
  async testChannel(id: number, model?: string): Promise<number> {
    const query = model ? `?model=${encodeURIComponent(model)}` : '';
    // The answer carries `time` beside the envelope's fields as well as in `data`.
    const answer: ChannelTestAnswer = await request<ChannelTestAnswer['data']>('GET', `${BASE}/test/${id}${query}`);
    failIfRefused(answer);
    return answer.data?.time ?? answer.time ?? 0;
  },
  /** Starts testing every channel; the server answers at once and tests in the background. */
  async testAllChannels(): Promise<void> {
    await api.get(`${BASE}/test`);
  },
  async updateBalance(id: number): Promise<number> {
    const answer: ChannelBalanceAnswer = await request<ChannelBalanceAnswer['data']>('GET', `${BASE}/update_balance/${id}/`);
    failIfRefused(answer);
    return answer.data?.balance ?? answer.balance ?? 0;
  },
  /** Reads the balance of every enabled channel; answers how many were updated and how many failed. */
  updateAllBalances(): Promise<BalanceSweepView> {
    return api.get<BalanceSweepView>(`${BASE}/update_balance`);
  },
  /** Quick edits an admin may make: `{id, status}`, `{id, priority}` or `{id, weight}`. */
  quickUpdateChannel(body: { id: number; status?: number; priority?: number; weight?: number }): Promise<ChannelView> {
    return api.put<ChannelView>(`${BASE}/`, body);
  },
  /** Enables or disables one key of a multi-key channel (by position), or enables all; answers the channel. */
  manageChannelKeys(channelId: number, action: KeyAction, index?: number): Promise<ChannelView> {
    const body: ManageKeysBody = { channel_id: channelId, action, ...(index === undefined ? {} : { key_index: index }) };
    return api.post<ChannelView>(`${BASE}/multi_key/manage`, body);
  },
  copyChannel(id: number): Promise<ChannelView> {
    return api.post<ChannelView>(`${BASE}/copy/${id}`);
  },
  async deleteChannel(id: number): Promise<void> {
    await api.delete(`${BASE}/${id}/`);
  },
  deleteDisabledChannels(): Promise<number> {
    return api.delete<number>(`${BASE}/disabled`);
  },
  deleteChannels(ids: number[]): Promise<number> {
    return api.post<number>(`${BASE}/batch`, { ids });
  },
  /** Rebuilds the abilities table; answers how many channels were rebuilt and how many failed. */
  fixChannels(): Promise<FixResult> {
    return api.post<FixResult>(`${BASE}/fix`);
  },
  tagChannels(ids: number[], tag: string): Promise<number> {
    return api.post<number>(`${BASE}/batch/tag`, { ids, tag });
  },
  setTagEnabled(tag: string, enabled: boolean): Promise<number> {
    return api.post<number>(`${BASE}/tag/${enabled ? 'enabled' : 'disabled'}`, { tag });
  },
  editTag(body: TagEdit): Promise<number> {
    return api.put<number>(`${BASE}/tag`, body);
  },
  /** The upstream's models of a saved channel. */
  async fetchModelsOf(id: number): Promise<string[]> {
    return modelNames(await api.get<unknown>(`${BASE}/fetch_models/${id}`));
  },
  /** The upstream's models for a channel being created, from what the form holds. */
  async fetchModelsFor(body: { base_url: string; type: number; key: string }): Promise<string[]> {
    return modelNames(await api.post<unknown>(`${BASE}/fetch_models`, body));
  },
};
