/** Cells of the audit log: who did it, the outcome, and which fields changed. */
import { Chip, Stack, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { AuditListItem } from '../../../server/audit/schemas';
import { OUTCOME_COLORS, roleKey } from './labels';

/** The actor's name and id, and the role they had then. */
export function ActorCell({ record }: { record: Pick<AuditListItem, 'actor_id' | 'actor_username' | 'actor_role'> }) {
  const translate = useTranslate();
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" sx={{ whiteSpace: 'nowrap' }}>
      <Typography variant="body2">{`${record.actor_username} #${record.actor_id}`}</Typography>
      <Chip size="small" variant="outlined" label={translate(roleKey(record.actor_role))} />
    </Stack>
  );
}

export function OutcomeChip({ outcome }: { outcome: string }) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={OUTCOME_COLORS[outcome] ?? 'default'}
      data-outcome={outcome}
      label={translate(`resources.audit.outcomes.${outcome}`, { _: outcome })}
    />
  );
}

/** The subject and its id (an option's key). */
export function SubjectCell({ record }: { record: Pick<AuditListItem, 'subject' | 'subject_id'> }) {
  const translate = useTranslate();
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {translate(`resources.audit.subjects.${record.subject}`, { _: record.subject })}
      {record.subject_id && ` ${/^\d+$/.test(record.subject_id) ? '#' : ''}${record.subject_id}`}
    </Typography>
  );
}

/** The changed fields' names, a few of them, with how many more. */
export function FieldsCell({ fields }: { fields: string[] }) {
  const translate = useTranslate();
  if (fields.length === 0) return null;
  const shown = fields.slice(0, 4).join(', ');
  return (
    <Typography variant="body2">
      {fields.length > 4 ? translate('resources.audit.more_fields', { fields: shown, count: fields.length - 4 }) : shown}
    </Typography>
  );
}
