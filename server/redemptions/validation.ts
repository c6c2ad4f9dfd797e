/** The rules of a redemption code's fields (spec 5) and the messages the API answers with. */
import { fail } from '../http/errors.js';
import { MAX_BATCH, MAX_NAME_LENGTH, REDEMPTION_DISABLED, REDEMPTION_UNUSED } from './schemas.js';

export const MESSAGES = {
  notFound: '兑换码不存在',
  nameLength: `兑换码名称长度必须在1-${MAX_NAME_LENGTH}之间`,
  quota: '兑换码额度必须是正整数',
  countPositive: '兑换码个数必须大于0',
  countMax: `一次兑换码批量生成的个数不能大于 ${MAX_BATCH}`,
  editOnlyUnused: '只能编辑未使用的兑换码',
  statusUsed: '兑换码已被使用，无法修改状态',
  statusInvalid: '无效的兑换码状态',
  noKey: '未提供兑换码',
  invalid: '无效的兑换码',
  used: '该兑换码已被使用',
  groupOnly: (group: string) => `该兑换码仅限 ${group} 分组的用户使用`,
  groupMissing: (group: string) => `分组 ${group} 不存在`,
} as const;

/** Quota above this could not be added to a balance exactly. */
const MAX_QUOTA = 1e15;

export function checkName(input: string | undefined): string {
  const name = (input ?? '').trim();
  // Characters, not UTF-16 units: a 20-character Chinese name is fine.
  const length = [...name].length;
  if (length < 1 || length > MAX_NAME_LENGTH) throw fail(MESSAGES.nameLength);
  return name;
}

export function checkQuota(quota: number): number {
  if (!Number.isInteger(quota) || quota < 1 || quota > MAX_QUOTA) throw fail(MESSAGES.quota);
  return quota;
}

export function checkCount(count: number): number {
  if (!Number.isInteger(count) || count < 1) throw fail(MESSAGES.countPositive);
  if (count > MAX_BATCH) throw fail(MESSAGES.countMax);
  return count;
}

/** Empty means any group; anything else must be a group that exists. */
export function checkGroup(input: string | undefined, groups: readonly string[]): string {
  const group = (input ?? '').trim();
  if (group !== '' && !groups.includes(group)) throw fail(MESSAGES.groupMissing(group));
  return group;
}

/** An admin may enable or disable a code; the "used" state only comes from redeeming it. */
export function checkStatus(status: number | undefined): number {
  if (status !== REDEMPTION_UNUSED && status !== REDEMPTION_DISABLED) throw fail(MESSAGES.statusInvalid);
  return status;
}
