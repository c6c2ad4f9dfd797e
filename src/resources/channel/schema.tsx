import type { FieldSchema, FormValues, ResourceSchema } from '../schema';
import {
  BalanceCell,
  GroupsCell,
  InlineNumberCell,
  NameCell,
  ResponseTimeCell,
  StatusCell,
  TypeCell,
  UsedQuotaCell,
} from './ChannelCells';
import { GroupFilter, StatusFilter } from './ChannelFilters';
import {
  AutoBanInput,
  BaseUrlInput,
  BatchInput,
  ChannelModelsInput,
  GroupsInput,
  HelpedInput,
  JsonInput,
  KeyInput,
  LimitInputs,
  RemarkInput,
  OrganizationInput,
  OtherInput,
  RoutingInputs,
  TypeInput,
} from './ChannelInputs';
import { ChannelRowActions } from './ChannelRowActions';
import { HealthCell } from './ChannelHealth';
import { ChannelKeysInput, MultiKeyModeInput } from './ChannelKeysInput';
import { ChannelModes, ChannelToolbar, useModeFilter, useModes } from './ChannelToolbar';
import { emptyValues, endsWithV1, toChannelBody, toFormValues, validateChannel, type ChannelFormValues } from './channelForm';
import { StreamOnlyInput } from './StreamOnlyInput';
import { groupByTag } from './tagRows';
import { CHANNEL_ENABLED, isTagRow, type ChannelRow, type ChannelView } from './types';

const search = (name: string) => `resources.channel.search.${name}`;
const section = (name: string) => `resources.channel.sections.${name}`;

/** In both drawers, drawn by its own input, optionally opening a section of the form. */
function form(input: FieldSchema['input'], title?: string): Partial<FieldSchema<ChannelRow>> {
  return { showInCreate: true, showInEdit: true, input, ...(title ? { section: title } : {}) };
}

const body = (mode: 'create' | 'edit') => (data: FormValues) => toChannelBody(data as unknown as ChannelFormValues, mode);

/**
 * /channel: channel management. Search with Query and Reset (a key search needs a model); test,
 * balance, sort, tag-aggregation and batch switches over the rows; columns remembered as
 * `channel-columns`; priority and weight edited in place; the add (/channel/add) and edit drawers.
 */
const channelSchema: ResourceSchema<ChannelRow> = {
  name: 'channel',
  canCreate: true,
  canEdit: true,
  rowActions: ChannelRowActions,
  // Disabled channels are greyed.
  rowSx: (record) => (record.status === CHANNEL_ENABLED ? {} : { opacity: 0.6 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true, label: search('keyword') } },
    { source: 'id', type: 'id', showInList: true, render: (record) => (isTagRow(record) ? '' : record.id) },
    {
      source: 'name',
      type: 'text',
      showInList: true,
      render: (record) => <NameCell record={record} />,
      showInCreate: true,
      showInEdit: true,
    },
    {
      source: 'group',
      type: 'virtual',
      showInList: true,
      render: (record) => <GroupsCell record={record} />,
      showInFilter: { label: search('group'), input: GroupFilter },
      ...form(GroupsInput),
    },
    {
      source: 'type',
      type: 'virtual',
      showInList: true,
      render: (record) => <TypeCell record={record} />,
      ...form(TypeInput, section('basic')),
    },
    {
      source: 'status',
      type: 'virtual',
      showInList: true,
      render: (record) => <StatusCell record={record} />,
      showInFilter: { alwaysOn: true, label: search('status'), input: StatusFilter },
    },
    {
      source: 'health',
      type: 'virtual',
      showInList: true,
      render: (record) => <HealthCell record={record} />,
    },
    { source: 'key', type: 'text', showInFilter: { label: search('key') }, ...form(KeyInput) },
    { source: 'multi_key_mode', type: 'virtual', ...form(MultiKeyModeInput) },
    { source: 'keys', type: 'virtual', showInEdit: true, input: ChannelKeysInput },
    { source: 'model', type: 'text', showInFilter: { label: search('model') } },
    { source: 'response_time', type: 'virtual', showInList: true, render: (record) => <ResponseTimeCell record={record} /> },
    { source: 'balance', type: 'virtual', showInList: true, render: (record) => <BalanceCell record={record} /> },
    { source: 'used_quota', type: 'virtual', showInList: true, render: (record) => <UsedQuotaCell record={record} /> },
    // Keyed by value so a reloaded row starts from the saved number.
    {
      source: 'priority',
      type: 'virtual',
      showInList: true,
      render: (record) => <InlineNumberCell key={record.priority} record={record} kind="priority" />,
      ...form(RoutingInputs, section('routing')),
    },
    {
      source: 'weight',
      type: 'virtual',
      showInList: true,
      render: (record) => <InlineNumberCell key={record.weight} record={record} kind="weight" />,
    },
    { source: 'rpm_limit', type: 'virtual', ...form(LimitInputs) },
    { source: 'batch', type: 'virtual', showInCreate: true, input: BatchInput },
    { source: 'base_url', type: 'virtual', ...form(BaseUrlInput) },
    { source: 'other', type: 'virtual', ...form(OtherInput) },
    { source: 'openai_organization', type: 'virtual', ...form(OrganizationInput) },
    { source: 'models', type: 'virtual', ...form(ChannelModelsInput, section('models')) },
    { source: 'test_model', type: 'virtual', ...form(HelpedInput) },
    { source: 'auto_ban', type: 'virtual', ...form(AutoBanInput) },
    { source: 'stream_only', type: 'virtual', ...form(StreamOnlyInput) },
    { source: 'tag', type: 'virtual', ...form(HelpedInput) },
    { source: 'remark', type: 'virtual', ...form(RemarkInput) },
    { source: 'model_mapping', type: 'virtual', ...form(JsonInput, section('advanced')) },
    { source: 'status_code_mapping', type: 'virtual', ...form(JsonInput) },
    { source: 'param_override', type: 'virtual', ...form(JsonInput) },
    { source: 'setting', type: 'virtual', ...form(JsonInput) },
    { source: 'header_override', type: 'virtual', ...form(JsonInput) },
    { source: 'settings', type: 'virtual', ...form(JsonInput) },
  ],
  transform: { create: body('create'), edit: body('edit') },
  list: {
    provider: ChannelModes,
    summary: ChannelToolbar,
    usePermanentFilter: useModeFilter,
    filterMode: 'submit',
    validateFilter: (values) => (values.key && !values.model ? 'resources.channel.validation.key_needs_model' : undefined),
    selection: { useEnabled: () => useModes().batchMode, isSelectable: (record) => !isTagRow(record), bar: false },
    groups: {
      useEnabled: () => useModes().tagMode,
      fold: groupByTag,
      childrenOf: (record) => (isTagRow(record) ? record.children : undefined),
    },
    columnSettings: 'channel-columns',
    createAlias: 'add',
  },
  form: {
    width: 560,
    order: [
      'type',
      'name',
      'batch',
      'key',
      'multi_key_mode',
      'keys',
      'base_url',
      'other',
      'openai_organization',
      'models',
      'group',
      'test_model',
      'priority',
      'rpm_limit',
      'auto_ban',
      'stream_only',
      'tag',
      'remark',
      'model_mapping',
      'status_code_mapping',
      'param_override',
      'header_override',
      'setting',
      'settings',
    ],
    defaults: () => emptyValues() as unknown as FormValues,
    toFormValues: (record) => toFormValues(record as ChannelView) as unknown as FormValues,
    validate: (values, mode) => validateChannel(values as Partial<ChannelFormValues>, mode),
    // A base URL ending in /v1 is usually a mistake (the gateway adds the path): ask first.
    confirm: (values) =>
      endsWithV1(values.base_url)
        ? { title: 'resources.channel.confirm.v1_title', content: 'resources.channel.confirm.v1_content' }
        : null,
  },
};

export default channelSchema;
