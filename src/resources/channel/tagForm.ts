/** The tag-edit form as plain functions: its values from a tag row, the checks, the changed fields. */
import type { TagEdit } from '../../api/channelActions';
import { PRIORITY_MIN, splitNames, type ChannelTagRow } from './types';

export interface TagFormValues {
  new_tag: string;
  model_mapping: string;
  groups: string[];
  models: string[];
  priority: string;
  weight: string;
}

export function tagFormValues(row: ChannelTagRow): TagFormValues {
  return {
    new_tag: row.tag,
    model_mapping: '',
    groups: splitNames(row.group),
    models: splitNames(row.models),
    priority: String(row.priority),
    weight: String(row.weight),
  };
}

const V = 'resources.channel.validation.';

/** Field → i18n key of its message (priority an integer, weight a non-negative integer). */
export function validateTagForm(values: TagFormValues): Partial<Record<keyof TagFormValues, string>> {
  const errors: Partial<Record<keyof TagFormValues, string>> = {};
  const priority = values.priority.trim();
  if (!/^-?\d+$/.test(priority)) errors.priority = `${V}priority_integer`;
  else if (Number(priority) < PRIORITY_MIN) errors.priority = `${V}priority_min`;
  if (!/^\d+$/.test(values.weight.trim())) errors.weight = `${V}weight_integer`;
  const mapping = values.model_mapping.trim();
  if (mapping !== '') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(mapping);
    } catch {
      parsed = null;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) errors.model_mapping = `${V}model_mapping_json`;
  }
  return errors;
}

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v) => b.includes(v));

/** The PUT /api/channel/tag body with only what changed; null when nothing did. */
export function tagChanges(tag: string, initial: TagFormValues, values: TagFormValues): TagEdit | null {
  const body: TagEdit = { tag };
  const newTag = values.new_tag.trim();
  if (newTag !== '' && newTag !== tag) body.new_tag = newTag;
  const mapping = values.model_mapping.trim();
  if (mapping !== '') body.model_mapping = mapping;
  if (values.groups.length > 0 && !sameList(values.groups, initial.groups)) body.groups = values.groups.join(',');
  if (values.models.length > 0 && !sameList(values.models, initial.models)) body.models = values.models.join(',');
  if (Number(values.priority) !== Number(initial.priority)) body.priority = Number(values.priority);
  if (Number(values.weight) !== Number(initial.weight)) body.weight = Number(values.weight);
  return Object.keys(body).length > 1 ? body : null;
}
