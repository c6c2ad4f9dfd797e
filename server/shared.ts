/**
 * What the console runs of the server: pure data and functions both programs need, so each exists
 * once. The console imports values from server/ only through this module (types it may import from
 * anywhere), and this module reaches nothing but pure modules of its own kind — no package, no
 * builtin, no database — since the console's bundle carries whatever it runs.
 * tests/server/import-cycles.test.ts keeps both rules.
 */
export { REFUSALS, type RefusalCode } from './http/refusals.js';
export { TOKEN_ENABLED } from './tokens/status.js';
export { builtInCompletionRatio } from './options/default-prices.js';
export { AUDIT_SUBJECTS } from './audit/types.js';
export { capabilityOverridesError } from './relay/wire/model-capabilities.js';
export {
  baseUrlRequired,
  CHANNEL_AUTO_DISABLED,
  CHANNEL_ENABLED,
  CHANNEL_MANUALLY_DISABLED,
  CHANNEL_TYPE_IDS,
  CHANNEL_TYPES,
  isChannelType,
  keyRequired,
  manifestOf,
  otherDefault,
} from './channels/types.js';
