/**
 * ModelRequestRateLimitGroup: group → [max requests, max successful requests] within the window,
 * e.g. {"default": [200, 100], "vip": [0, 1000]}; max requests >= 0 (0 = unlimited), max
 * successful requests >= 1.
 */
import type { JsonCheck } from '../operation/optionFields';

const isInt = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value);

export const rateLimitGroup: JsonCheck = (value) => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { message: 'settings_operation.errors.json_object' };
  for (const [group, pair] of Object.entries(value)) {
    if (group.trim() === '') return { message: 'settings_operation.ratelimit.group_name_empty' };
    const valid = Array.isArray(pair) && pair.length === 2 && isInt(pair[0]) && isInt(pair[1]) && pair[0] >= 0 && pair[1] >= 1;
    if (!valid) return { message: 'settings_operation.ratelimit.group_invalid', args: { group } };
  }
  return null;
};

/** ModelRequestRateLimitTPMGroup: group → most tokens per minute (an integer ≥ 0; 0 = unlimited). */
export const tpmGroup: JsonCheck = (value) => {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { message: 'settings_operation.errors.json_object' };
  for (const [group, tpm] of Object.entries(value)) {
    if (group.trim() === '') return { message: 'settings_operation.ratelimit.group_name_empty' };
    if (!isInt(tpm) || tpm < 0) return { message: 'settings_operation.ratelimit.tpm_group_invalid', args: { group } };
  }
  return null;
};
