/**
 * The channel type → provider models map the channel form keeps in localStorage between visits
 * (the calls themselves are custom dataProvider methods: src/api/channelActions.ts).
 */
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
