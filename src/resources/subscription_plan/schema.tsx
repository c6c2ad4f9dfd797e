import type { Choice, FormValues, ResourceSchema } from '../schema';
import type { SubscriptionPlanRecord } from './types';

const DURATION_UNITS = ['year', 'month', 'week', 'day', 'hour', 'custom', 'permanent'];
const RESET_PERIODS = ['never', 'daily', 'weekly', 'monthly', 'custom'];
const choices = (group: string, ids: string[]): Choice[] =>
  ids.map((id) => ({ id, name: `resources.subscription_plan.${group}.${id}` }));

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const num = (value: unknown) => (Number.isFinite(Number(value)) ? Number(value) : 0);

/** The plan as the API takes it: only the writable fields, numbers as numbers. */
function toPlanBody(values: FormValues): FormValues {
  return {
    title: text(values.title),
    subtitle: text(values.subtitle),
    price_amount: num(values.price_amount),
    currency: text(values.currency) || 'USD',
    duration_unit: text(values.duration_unit) || 'month',
    duration_value: num(values.duration_value),
    custom_seconds: num(values.custom_seconds),
    total_amount: num(values.total_amount),
    quota_reset_period: text(values.quota_reset_period) || 'never',
    quota_reset_custom_seconds: num(values.quota_reset_custom_seconds),
    upgrade_group: text(values.upgrade_group),
    max_purchase_per_user: num(values.max_purchase_per_user),
    sort_order: num(values.sort_order),
    enabled: values.enabled !== false,
  };
}

const nonNegative = [{ kind: 'min' as const, value: 0, message: 'resources.subscription_plan.validation.non_negative' }];
const count = [...nonNegative, { kind: 'integer' as const, message: 'resources.subscription_plan.validation.integer' }];

/**
 * /subscription_plan: the plans on sale (title, price, how long, the quota of each period and when
 * it resets, the group it upgrades to, how many times a user may buy it), with create and edit drawers.
 */
const planSchema: ResourceSchema<SubscriptionPlanRecord> = {
  name: 'subscription_plan',
  canCreate: true,
  canEdit: true,
  rowSx: (record) => (record.enabled ? {} : { opacity: 0.6 }),
  fields: [
    { source: 'id', type: 'id', showInList: true },
    {
      source: 'title',
      type: 'text',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      validate: [
        { kind: 'required', message: 'ra.validation.required' },
        { kind: 'maxLength', value: 128, message: 'resources.subscription_plan.validation.title_length' },
      ],
    },
    { source: 'subtitle', type: 'text', showInCreate: true, showInEdit: true },
    { source: 'price_amount', type: 'number', showInList: true, showInCreate: true, showInEdit: true, validate: nonNegative },
    { source: 'currency', type: 'text', showInList: true, showInCreate: true, showInEdit: true, defaultValue: 'USD' },
    {
      source: 'duration_unit',
      type: 'select',
      choices: choices('duration_units', DURATION_UNITS),
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      defaultValue: 'month',
    },
    {
      source: 'duration_value',
      type: 'number',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      defaultValue: 1,
      validate: count,
    },
    { source: 'custom_seconds', type: 'number', showInCreate: true, showInEdit: true, defaultValue: 0, validate: count },
    { source: 'total_amount', type: 'quota', showInList: true, showInCreate: true, showInEdit: true, validate: nonNegative },
    {
      source: 'quota_reset_period',
      type: 'select',
      choices: choices('reset_periods', RESET_PERIODS),
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      defaultValue: 'never',
    },
    {
      source: 'quota_reset_custom_seconds',
      type: 'number',
      showInCreate: true,
      showInEdit: true,
      defaultValue: 0,
      validate: count,
    },
    { source: 'upgrade_group', type: 'text', showInList: true, showInCreate: true, showInEdit: true },
    { source: 'max_purchase_per_user', type: 'number', showInCreate: true, showInEdit: true, defaultValue: 0, validate: count },
    { source: 'sort_order', type: 'number', showInCreate: true, showInEdit: true, defaultValue: 0 },
    { source: 'enabled', type: 'boolean', showInList: true, showInCreate: true, showInEdit: true, defaultValue: true },
    { source: 'updated_at', type: 'date', showInList: true, column: { nowrap: true } },
  ],
  transform: { create: toPlanBody, edit: toPlanBody },
};

export default planSchema;
