/** The user groups an operator defines through the GroupRatio and UserUsableGroups options. */
import type { OptionStore } from '../options/store.js';
import type { UserGroups } from './schemas.js';

function objectOption(options: OptionStore, key: 'GroupRatio' | 'UserUsableGroups'): Record<string, unknown> {
  const value = options.json<unknown>(key);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Every group with a price ratio: the groups that exist. */
export function groupNames(options: OptionStore): string[] {
  return Object.keys(objectOption(options, 'GroupRatio'));
}

export function groupRatio(options: OptionStore, group: string): number {
  const ratio = objectOption(options, 'GroupRatio')[group];
  return typeof ratio === 'number' && Number.isFinite(ratio) ? ratio : 1;
}

/** The groups a user may pick (for tokens, the playground), with description and ratio. */
export function usableGroups(options: OptionStore, ownGroup: string): UserGroups {
  const groups: UserGroups = {};
  for (const [group, desc] of Object.entries(objectOption(options, 'UserUsableGroups'))) {
    groups[group] = { desc: typeof desc === 'string' ? desc : group, ratio: groupRatio(options, group) };
  }
  // The user's own group is always theirs to use, even when not offered to everyone.
  groups[ownGroup] ??= { desc: '用户分组', ratio: groupRatio(options, ownGroup) };
  return groups;
}
