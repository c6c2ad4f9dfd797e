import type { ChoiceLoader, ResourceSchema } from '../schema';
import { CatalogRowActions, CATALOG_ENABLED, iconRule, NameWithIcon, statusChoices } from '../shared/catalog';
import { MatchedCell, TagsCell } from './ModelCells';
import { MissingModelsButton } from './MissingModelsButton';
import { endpointsValid, loadVendorChoices, toModelBody } from './modelForm';
import { NAME_RULES, type ModelRecord } from './types';

/** Keyed by the vendor resource's name: reloaded after any change to the vendors. */
const vendors: ChoiceLoader = { key: 'vendor', load: loadVendorChoices };

const nameRules = NAME_RULES.map((rule, id) => ({ id, name: `resources.model.name_rules.${rule}` }));

const count = [
  { kind: 'integer', message: 'resources.model.validation.whole_number' },
  { kind: 'min', value: 0, message: 'resources.model.validation.whole_number' },
] as const;

function ModelRowActions() {
  return <CatalogRowActions<ModelRecord> resource="model" options={{ nameOf: (record) => record.model_name }} />;
}

/**
 * /model: the model metadata new-api's console manages, with keyword, vendor and status filters,
 * the served models each row matches, "models without metadata", and create and edit drawers
 * (name and its rule, vendor, description, tags, icon, endpoints, and the model's facts).
 */
const modelSchema: ResourceSchema<ModelRecord> = {
  name: 'model',
  canCreate: true,
  canEdit: true,
  rowActions: ModelRowActions,
  rowSx: (record) => (record.status === CATALOG_ENABLED ? {} : { opacity: 0.6 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'vendor', type: 'select', choices: vendors, showInFilter: { alwaysOn: true } },
    { source: 'id', type: 'id', showInList: true },
    {
      source: 'model_name',
      type: 'text',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      validate: [
        { kind: 'required', message: 'ra.validation.required' },
        { kind: 'maxLength', value: 128, message: 'resources.model.validation.name_length' },
      ],
      render: (record) => <NameWithIcon icon={record.icon} name={record.model_name} />,
    },
    {
      source: 'name_rule',
      type: 'select',
      choices: nameRules,
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      defaultValue: 0,
    },
    {
      source: 'vendor_id',
      type: 'select',
      choices: vendors,
      unknownChoice: 'resources.model.no_vendor',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
    },
    {
      source: 'description',
      type: 'text',
      multiline: true,
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      column: { maxWidth: 320 },
    },
    {
      source: 'tags',
      type: 'text',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      render: (record) => <TagsCell record={record} />,
    },
    { source: 'icon', type: 'text', showInCreate: true, showInEdit: true, validate: [iconRule('model')] },
    { source: 'matched_count', type: 'virtual', showInList: true, render: (record) => <MatchedCell record={record} /> },
    {
      source: 'status',
      type: 'select',
      choices: statusChoices('model'),
      showInList: true,
      showInFilter: true,
      showInCreate: true,
      showInEdit: true,
      defaultValue: CATALOG_ENABLED,
    },
    {
      source: 'endpoints',
      type: 'text',
      multiline: true,
      showInCreate: true,
      showInEdit: true,
      section: 'resources.model.sections.details',
      validate: [{ kind: 'custom', test: endpointsValid, message: 'resources.model.validation.endpoints' }],
    },
    { source: 'context_length', type: 'number', showInCreate: true, showInEdit: true, validate: [...count] },
    { source: 'max_output_tokens', type: 'number', showInCreate: true, showInEdit: true, validate: [...count] },
    { source: 'knowledge_cutoff', type: 'text', showInCreate: true, showInEdit: true },
    { source: 'release_date', type: 'text', showInCreate: true, showInEdit: true },
    { source: 'parameter_count', type: 'text', showInCreate: true, showInEdit: true },
    { source: 'input_modalities', type: 'text', showInCreate: true, showInEdit: true },
    { source: 'output_modalities', type: 'text', showInCreate: true, showInEdit: true },
    {
      source: 'sync_official',
      type: 'select',
      choices: [
        { id: 1, name: 'resources.model.sync.on' },
        { id: 0, name: 'resources.model.sync.off' },
      ],
      showInCreate: true,
      showInEdit: true,
      defaultValue: 1,
    },
    { source: 'updated_time', type: 'date', showInList: true, column: { nowrap: true } },
  ],
  transform: { create: toModelBody, edit: toModelBody },
  list: { actions: MissingModelsButton },
  form: { width: 560 },
};

export default modelSchema;
