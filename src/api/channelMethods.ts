/**
 * Channel model lookups, as custom dataProvider methods (spread into customMethods): every model
 * some channel serves, those of enabled channels, and each channel type's provider models; the
 * channel actions besides CRUD are spread in.
 */
import { channelActions } from './channelActions';
import { api } from './client';
import { modelNames } from './modelNames';

export const channelMethods = {
  ...channelActions,
  /** Every model name some channel serves. */
  async getServedModels(): Promise<string[]> {
    return modelNames(await api.get<unknown>('/api/channel/models'));
  },
  /** Models some enabled channel serves (the pricing editor's unpriced list starts from them). */
  async getEnabledModels(): Promise<string[]> {
    return (await api.get<string[] | null>('/api/channel/models_enabled')) ?? [];
  },
  async getGroupNames(): Promise<string[]> {
    return (await api.get<string[] | null>('/api/group/')) ?? [];
  },
  /** Channel type → its provider's models. */
  async getTypeModels(): Promise<Record<string, string[]>> {
    const answer = await api.get<unknown>('/api/models');
    const out: Record<string, string[]> = {};
    if (typeof answer === 'object' && answer !== null && !Array.isArray(answer)) {
      for (const [type, list] of Object.entries(answer)) out[type] = modelNames(list);
    }
    return out;
  },
};
