import type { ChoiceLoader, FieldSchema, FormValues, ResourceSchema } from '../schema';
import { UserBillingButtons } from '../subscription_plan/UserSubscriptionsButton';
import { InviteCell, StatsCell, StatusCell } from './UserCells';
import { UserRowActions } from './UserRowActions';
import { UserSecurityInput } from './UserSecurityInput';
import type { UserRecord } from './types';

const credentialsRequired = {
  kind: 'required',
  on: 'create',
  message: 'resources.user.validation.credentials_required',
} as const;

/** Group and quota are edited only on someone else's account. */
const notSelf = ({ record, identityId }: { record: UserRecord | undefined; identityId: unknown }) =>
  !!record && identityId !== undefined && String(record.id) !== String(identityId);

const groups: ChoiceLoader = {
  key: 'groups',
  load: async (gateway) => (await gateway.getGroupNames()).map((name) => ({ id: name, name })),
};

/** A bound account: shown read-only in the edit form. */
const bound = (source: keyof UserRecord): FieldSchema<UserRecord> => ({ source, type: 'text', showInEdit: 'readonly' });

/**
 * The manage-users screen: keyword and group filters, its columns, row actions
 * (promote, demote, disable / enable, edit, deregister) and the add and edit drawers.
 */
const userSchema: ResourceSchema<UserRecord> = {
  name: 'user',
  canCreate: true,
  canEdit: true,
  rowActions: UserRowActions,
  rowSx: (record) => (record.DeletedAt ? { opacity: 0.6 } : {}),
  fields: [
    { source: 'keyword', type: 'text', showInFilter: { alwaysOn: true } },
    { source: 'id', type: 'id', showInList: true },
    {
      source: 'username',
      type: 'text',
      showInList: true,
      showInCreate: true,
      showInEdit: true,
      validate: [credentialsRequired, { kind: 'required', on: 'edit', message: 'ra.validation.required' }],
    },
    { source: 'display_name', type: 'text', showInCreate: true, showInEdit: true },
    {
      source: 'password',
      type: 'password',
      showInCreate: true,
      showInEdit: true,
      validate: [credentialsRequired, { kind: 'minLength', value: 8, message: 'resources.user.validation.password_min' }],
    },
    {
      source: 'group',
      type: 'select',
      choices: groups,
      showInList: true,
      showInFilter: { alwaysOn: true },
      showInEdit: true,
      editWhen: notSelf,
    },
    {
      source: 'quota',
      type: 'quota',
      showInEdit: true,
      editWhen: notSelf,
      editAddon: UserBillingButtons,
      validate: [
        { kind: 'integer', message: 'resources.user.validation.quota_integer' },
        { kind: 'min', value: 0, message: 'resources.user.quota_dialog.negative' },
      ],
    },
    {
      // Relayed requests per day (UTC), all nodes together; 0 = no limit.
      source: 'rpd_limit',
      type: 'number',
      showInEdit: true,
      hint: 'resources.user.helper.rpd_limit',
      validate: [
        { kind: 'integer', message: 'resources.user.validation.rpd_limit' },
        { kind: 'min', value: 0, message: 'resources.user.validation.rpd_limit' },
      ],
    },
    { source: 'stats', type: 'virtual', showInList: true, render: (record) => <StatsCell record={record} /> },
    { source: 'invite', type: 'virtual', showInList: true, render: (record) => <InviteCell record={record} /> },
    {
      source: 'role',
      type: 'select',
      showInList: true,
      choices: [
        { id: 1, name: 'resources.user.roles.user' },
        { id: 10, name: 'resources.user.roles.admin' },
        { id: 100, name: 'resources.user.roles.root' },
      ],
      unknownChoice: 'resources.user.roles.unknown',
    },
    { source: 'status', type: 'select', showInList: true, render: (record) => <StatusCell record={record} /> },
    {
      // The admins' note: the user never sees it.
      source: 'remark',
      type: 'text',
      showInCreate: true,
      showInEdit: true,
      validate: [{ kind: 'maxLength', value: 255, message: 'resources.user.validation.remark_max' }],
    },
    bound('github_id'),
    bound('oidc_id'),
    bound('wechat_id'),
    bound('email'),
    bound('telegram_id'),
    // Resets of the user's second factors: buttons acting at once, not a value the form saves.
    { source: 'security', type: 'virtual', showInEdit: true, input: UserSecurityInput },
  ],
  transform: {
    // POST /api/user/ takes exactly these.
    create: ({ username, display_name, password, remark }) => ({ username, display_name, password, remark }),
    edit: (data) => {
      const body: FormValues = {
        ...data,
        quota: Math.trunc(Number(data.quota) || 0),
        rpd_limit: Math.trunc(Number(data.rpd_limit) || 0),
      };
      // An empty password keeps the current one.
      if (!body.password) delete body.password;
      return body;
    },
  },
};

export default userSchema;
