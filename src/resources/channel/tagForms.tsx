/**
 * The channel screen's action forms: a tag's shared fields (PUT /api/channel/tag with what changed)
 * and one tag for the selected channels (POST /api/channel/batch/tag). Both open in the generic
 * action-form drawer.
 */
import { useTranslate } from 'react-admin';
import type { ActionForm, FieldSchema, FormValues, InputSlotProps } from '../schema';
import { ChipsInput } from './ChipsField';
import { useGroupNames, useModelCatalog } from './ModelsInput';
import { tagChanges, tagFormValues, validateTagForm, type TagFormValues } from './tagForm';
import type { ChannelTagRow } from './types';

const L = 'resources.channel.tag_edit.';

function TagModelsInput({ source, label, field }: InputSlotProps) {
  const translate = useTranslate();
  const { known } = useModelCatalog();
  const hint = field.hint ? translate(field.hint) : undefined;
  return <ChipsInput source={source} label={translate(label)} options={known} freeSolo helperText={hint} />;
}

function TagGroupsInput({ source, label, field }: InputSlotProps) {
  const translate = useTranslate();
  const hint = field.hint ? translate(field.hint) : undefined;
  return <ChipsInput source={source} label={translate(label)} options={useGroupNames()} helperText={hint} />;
}

/** react-admin hands an emptied text input back as null; the tag form's functions take text. */
function tagValues(values: FormValues): TagFormValues {
  const text = (key: keyof TagFormValues) => (typeof values[key] === 'string' ? (values[key] as string) : '');
  const list = (key: keyof TagFormValues) => (Array.isArray(values[key]) ? (values[key] as string[]) : []);
  return {
    new_tag: text('new_tag'),
    model_mapping: text('model_mapping'),
    groups: list('groups'),
    models: list('models'),
    priority: text('priority'),
    weight: text('weight'),
  };
}

const TAG_FIELDS: FieldSchema[] = [
  { source: 'tag', type: 'text', label: `${L}tag`, showInEdit: 'readonly' },
  { source: 'new_tag', type: 'text', label: `${L}new_tag`, hint: `${L}new_tag_hint` },
  { source: 'models', type: 'text', input: TagModelsInput, hint: `${L}models_hint` },
  { source: 'groups', type: 'text', label: 'resources.channel.fields.group', input: TagGroupsInput, hint: `${L}groups_hint` },
  { source: 'model_mapping', type: 'text', multiline: true, hint: `${L}mapping_hint` },
  { source: 'priority', type: 'text' },
  { source: 'weight', type: 'text' },
];

/** Changes every channel of a tag at once; only the fields that changed are sent. */
export const tagEditForm: ActionForm<ChannelTagRow> = {
  title: `${L}title`,
  titleArgs: (row) => ({ tag: row.tag }),
  fields: TAG_FIELDS,
  initial: (row) => ({ tag: row.tag, ...tagFormValues(row) }),
  validate: (values) => validateTagForm(tagValues(values)),
  submit: async (values, row, initial, gateway) => {
    const body = tagChanges(row.tag, tagValues(initial), tagValues(values));
    if (!body) return { done: false, message: 'resources.channel.validation.no_changes' };
    await gateway.editTag(body);
    return { done: true, message: 'resources.channel.notification.tag_updated' };
  },
};

/** Replaces the tag of the selected channels; an empty tag is refused. */
export const batchTagForm: ActionForm<number[]> = {
  title: 'resources.channel.batch_tag.title',
  titleArgs: (ids) => ({ count: ids.length }),
  fields: [
    {
      source: 'tag',
      type: 'text',
      hint: 'resources.channel.batch_tag.hint',
      validate: [{ kind: 'required', message: 'resources.channel.validation.tag_empty' }],
    },
  ],
  initial: () => ({ tag: '' }),
  submitLabel: 'ra.action.confirm',
  submit: async (values, ids, _initial, gateway) => {
    const tag = typeof values.tag === 'string' ? values.tag.trim() : '';
    const count = await gateway.tagChannels(ids, tag);
    return { done: true, message: 'resources.channel.notification.tagged', args: { count, tag } };
  },
};
