import type { FormValues, ResourceSchema } from '../schema';
import { CatalogRowActions, CATALOG_ENABLED, iconRule, NameWithIcon, statusChoices } from '../shared/catalog';
import type { VendorRecord } from './types';

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The writable fields as the API takes them: a cleared text input is "" (the API takes no null). */
function toVendorBody(values: FormValues): FormValues {
  const body: FormValues = {
    name: text(values.name),
    description: text(values.description),
    icon: text(values.icon),
    status: Number(values.status ?? CATALOG_ENABLED),
  };
  if (values.id !== undefined) body.id = values.id;
  return body;
}

function VendorRowActions() {
  return <CatalogRowActions<VendorRecord> resource="vendor" />;
}

/**
 * /vendor: the vendors new-api's pricing page and model management name, with a keyword filter
 * (name or description), their number of models, and create and edit drawers.
 */
const vendorSchema: ResourceSchema<VendorRecord> = {
  name: 'vendor',
  canCreate: true,
  canEdit: true,
  rowActions: VendorRowActions,
  rowSx: (record) => (record.status === CATALOG_ENABLED ? {} : { opacity: 0.6 }),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'id', type: 'id', showInList: true },
    {
      source: 'name',
      type: 'text',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      validate: [
        { kind: 'required', message: 'ra.validation.required' },
        { kind: 'maxLength', value: 128, message: 'resources.vendor.validation.name_length' },
      ],
      render: (record) => <NameWithIcon icon={record.icon} name={record.name} />,
    },
    {
      source: 'description',
      type: 'text',
      multiline: true,
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      column: { maxWidth: 360 },
    },
    { source: 'icon', type: 'text', showInCreate: true, showInEdit: true, validate: [iconRule('vendor')] },
    {
      source: 'status',
      type: 'select',
      choices: statusChoices('vendor'),
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      defaultValue: CATALOG_ENABLED,
    },
    { source: 'model_count', type: 'number', showInList: true },
    { source: 'updated_time', type: 'date', showInList: true, column: { nowrap: true } },
  ],
  transform: { create: toVendorBody, edit: toVendorBody },
};

export default vendorSchema;
