/**
 * The models each channel type is known to serve, offered by the console's "fill models" button
 * (GET /api/models): each provider's manifest lists them. Data only: operators can always type other
 * model names.
 */
import { CHANNEL_TYPES, CHANNEL_TYPE_IDS, type ChannelType, type ChannelTypeManifest } from './types.js';

export const TYPE_MODELS: Partial<Record<ChannelType, readonly string[]>> = Object.fromEntries(
  CHANNEL_TYPE_IDS.flatMap((type) => {
    const models = (CHANNEL_TYPES[type] as ChannelTypeManifest).models;
    return models ? [[type, models]] : [];
  }),
);
