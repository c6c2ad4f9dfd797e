/**
 * The audit log's values as choices (label keys under resources.audit): subjects and outcomes are
 * the server's whole lists; actions are those of today's routes — one added later shows as its
 * name until it gets a label here.
 */
import type { Choice } from '../schema';
import { AUDIT_SUBJECTS } from '../../../server/shared';

const I18N = 'resources.audit';

const choices = (group: string, ids: readonly string[]): Choice[] => ids.map((id) => ({ id, name: `${I18N}.${group}.${id}` }));

export const SUBJECT_CHOICES = choices('subjects', AUDIT_SUBJECTS);

export const ACTIONS = [
  'create',
  'update',
  'delete',
  'copy',
  'promote',
  'demote',
  'enable',
  'disable',
  'status',
  'set_tag',
  'edit_tag',
  'enable_tag',
  'disable_tag',
  'delete_disabled',
  'fix_abilities',
  'reset_ratios',
  'cleanup',
] as const;
export const ACTION_CHOICES = choices('actions', ACTIONS);

export const OUTCOMES = ['ok', 'refused', 'error', 'pending'] as const;
export const OUTCOME_CHOICES = choices('outcomes', OUTCOMES);

export const OUTCOME_COLORS: Record<string, 'success' | 'warning' | 'error' | 'default'> = {
  ok: 'success',
  refused: 'warning',
  error: 'error',
  pending: 'default',
};

/** The label key of a role (the actor's role when they made the change). */
export function roleKey(role: number): string {
  if (role >= 100) return 'resources.user.roles.root';
  if (role >= 10) return 'resources.user.roles.admin';
  return 'resources.user.roles.user';
}
