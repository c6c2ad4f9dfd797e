/**
 * What the two catalogue resources (models, vendors) share: the enabled/disabled choices, the
 * icon rule the server applies, a name shown with its icon, and the row actions (enable or
 * disable, edit, delete).
 */
import { Button, Stack } from '@mui/material';
import { useRecordContext, useTranslate, type RaRecord } from 'react-admin';
import { SchemaEditButton, type Choice, type ValidationRule } from '../schema';
import { CatalogIcon } from './CatalogIcon';
import type { StatusResource } from '../../api/statusMethods';
import { useRowCommands, type RowCommandOptions } from './useRowCommands';

export const CATALOG_ENABLED = 1;
export const CATALOG_DISABLED = 0;

/** `resources.<name>.statuses.enabled / .disabled`. */
export function statusChoices(resource: string): Choice[] {
  return [
    { id: CATALOG_ENABLED, name: `resources.${resource}.statuses.enabled` },
    { id: CATALOG_DISABLED, name: `resources.${resource}.statuses.disabled` },
  ];
}

/** An icon name (`OpenAI`, `Claude.Color`) or an http(s) address, as the server takes it. */
export function iconRule(resource: string): ValidationRule {
  return {
    kind: 'pattern',
    value: /^\s*([A-Za-z0-9][A-Za-z0-9._-]*|https?:\/\/\S+)\s*$/i,
    message: `resources.${resource}.validation.icon`,
  };
}

export function NameWithIcon({ icon, name }: { icon: string; name: string }) {
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <CatalogIcon icon={icon} name={name} />
      <span>{name}</span>
    </Stack>
  );
}

/** Enable or disable, edit and delete a catalogue row (texts under `resources.<resource>.actions`). */
export function CatalogRowActions<R extends RaRecord & { status: number }>({
  resource,
  options,
}: {
  resource: StatusResource;
  options?: RowCommandOptions<R>;
}) {
  const record = useRecordContext<R>();
  const translate = useTranslate();
  const { disabled, setStatus, deleteButton } = useRowCommands<R>(resource, record, options);
  if (!record) return null;
  const enabled = record.status === CATALOG_ENABLED;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Button
        size="small"
        color={enabled ? 'warning' : 'primary'}
        disabled={disabled}
        onClick={() => void setStatus(enabled ? CATALOG_DISABLED : CATALOG_ENABLED)}
      >
        {translate(`resources.${resource}.actions.${enabled ? 'disable' : 'enable'}`)}
      </Button>
      <SchemaEditButton resource={resource} disabled={disabled} />
      {deleteButton}
    </Stack>
  );
}
