import { Box } from '@mui/material';
import type { AuditListItem } from '../../../server/audit/schemas';
import { formatTimestamp, SchemaShowButton, type FieldSchema, type ResourceSchema } from '../schema';
import { TimestampInput } from '../shared/TimestampInput';
import { ActorCell, FieldsCell, OutcomeChip, SubjectCell } from './AuditCells';
import { AuditDetail } from './AuditDetail';
import { ACTION_CHOICES, OUTCOME_CHOICES, SUBJECT_CHOICES } from './labels';

const filterLabel = (name: string) => `resources.audit.filters.${name}`;

/** A filter with no column of its own. */
const filterOnly = (source: string, alwaysOn = false, input?: typeof TimestampInput): FieldSchema<AuditListItem> => ({
  source,
  type: 'text',
  showInFilter: { alwaysOn, label: filterLabel(source), ...(input ? { input } : {}) },
});

function DetailButton() {
  return <SchemaShowButton resource="audit" />;
}

/**
 * /audit: the admin audit log, newest first. Filters by actor, subject, action (in the row), and by
 * the subject's id, outcome, request id and time behind "more filters"; a row opens its detail.
 */
const auditSchema: ResourceSchema<AuditListItem> = {
  name: 'audit',
  fields: [
    {
      source: 'created_at',
      type: 'virtual',
      showInList: true,
      column: { nowrap: true },
      render: (r) => formatTimestamp(r.created_at),
    },
    { source: 'actor', type: 'virtual', showInList: true, render: (r) => <ActorCell record={r} /> },
    filterOnly('actor', true),
    {
      source: 'subject',
      type: 'select',
      choices: SUBJECT_CHOICES,
      showInList: true,
      showInFilter: { alwaysOn: true },
      render: (r) => <SubjectCell record={r} />,
    },
    filterOnly('subject_id'),
    { source: 'action', type: 'select', choices: ACTION_CHOICES, showInList: true, showInFilter: { alwaysOn: true } },
    {
      source: 'fields',
      type: 'virtual',
      showInList: true,
      column: { maxWidth: 260 },
      render: (r) => <FieldsCell fields={r.fields} />,
    },
    {
      source: 'outcome',
      type: 'select',
      choices: OUTCOME_CHOICES,
      showInList: true,
      showInFilter: true,
      render: (r) => <OutcomeChip outcome={r.outcome} />,
    },
    {
      source: 'request_id',
      type: 'text',
      showInList: true,
      showInFilter: { label: filterLabel('request_id') },
      render: (r) => (
        <Box component="span" sx={{ fontFamily: 'monospace', fontSize: '0.75rem' }}>
          {r.request_id}
        </Box>
      ),
    },
    filterOnly('start_timestamp', false, TimestampInput),
    filterOnly('end_timestamp', false, TimestampInput),
  ],
  rowActions: DetailButton,
  list: { columnSettings: 'audit-columns' },
  show: { body: AuditDetail, width: 640 },
};

export default auditSchema;
