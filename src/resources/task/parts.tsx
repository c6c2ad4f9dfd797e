/**
 * Pieces shared by the Drawing log (/midjourney) and Task log (/task) schemas: their filters and
 * columns, and the label, channel, user, duration, progress, long-text and image cells.
 */
import { useState, type ReactNode } from 'react';
import {
  Box,
  Button,
  Chip,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  LinearProgress,
  Link,
  Stack,
  Typography,
} from '@mui/material';
import { useTranslate, type RaRecord } from 'react-admin';
import type { FieldSchema } from '../schema';
import { TimestampInput } from '../shared/TimestampInput';
import type { Label } from '../midjourney/labels';
import { durationIsSlow, durationSeconds, formatSeconds, progressValue, safeImageUrl } from './format';

/**
 * A coloured label, its text at `<i18n>.<group>.<label key>`; a value the table does not know
 * shows as itself (or `<i18n>.unknown` when empty).
 */
export function LabelChip({
  i18n,
  label,
  group,
  text,
  kind,
}: {
  i18n: string;
  label: Label | null;
  group: string;
  text: string;
  kind: string;
}) {
  const translate = useTranslate();
  return (
    <Chip
      size="small"
      color={label?.color ?? 'default'}
      data-kind={kind}
      data-value={label?.key ?? 'unknown'}
      label={label ? translate(`${i18n}.${group}.${label.key}`) : text || translate(`${i18n}.unknown`)}
    />
  );
}

/** The channel id with its name (admins only). */
export function ChannelCell({ id, name }: { id: number; name: string }) {
  if (!id) return null;
  return (
    <Stack direction="row" spacing={0.5} alignItems="center" sx={{ whiteSpace: 'nowrap' }}>
      <Chip size="small" variant="outlined" label={id} />
      {name && <Typography variant="body2">{name}</Typography>}
    </Stack>
  );
}

/** The owner (admins only): name, or the id when the user is gone. */
export function UserCell({ id, name }: { id: number; name: string }) {
  return (
    <Typography variant="body2" sx={{ whiteSpace: 'nowrap' }}>
      {name || `#${id}`}
    </Typography>
  );
}

/** Time from submission to the end: green, or red when over 60 s; "none" while unfinished. */
export function DurationCell({ submit, finish, unitMs }: { submit: number; finish: number; unitMs: number }) {
  const translate = useTranslate();
  const seconds = durationSeconds(submit, finish, unitMs);
  if (seconds === null) return <Typography variant="body2">{translate('resources.task.none')}</Typography>;
  const slow = durationIsSlow(seconds);
  return (
    <Chip
      size="small"
      color={slow ? 'error' : 'success'}
      data-slow={slow}
      label={translate('resources.task.seconds', { n: formatSeconds(seconds) })}
    />
  );
}

/** A progress bar with its percent; the raw text when it is not a percent. */
export function ProgressCell({ progress }: { progress: string }) {
  const value = progressValue(progress);
  if (value === null) return progress ? <Typography variant="body2">{progress}</Typography> : null;
  return (
    <Stack direction="row" spacing={1} alignItems="center" sx={{ minWidth: 120 }}>
      <LinearProgress variant="determinate" value={value} sx={{ flex: 1 }} aria-label={`${value}%`} />
      <Typography variant="body2">{`${value}%`}</Typography>
    </Stack>
  );
}

/** Long text cut to one short line; a click shows all of it in a dialog. */
export function LongTextCell({ text, title }: { text: string; title: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  if (!text) return null;
  return (
    <>
      <Link
        component="button"
        type="button"
        variant="body2"
        color="inherit"
        underline="hover"
        onClick={() => setOpen(true)}
        title={text}
        sx={{
          maxWidth: 220,
          overflow: 'hidden',
          textOverflow: 'ellipsis',
          whiteSpace: 'nowrap',
          display: 'block',
          textAlign: 'left',
        }}
      >
        {text}
      </Link>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="sm" fullWidth>
        <DialogTitle>{translate(title)}</DialogTitle>
        <DialogContent>
          <Typography sx={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>{text}</Typography>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/** "View image": the picture in a dialog, with a link to open it in a new tab. */
export function ImageCell({ url }: { url: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  const safe = safeImageUrl(url);
  if (!safe) return <Typography variant="body2">{translate('resources.task.none')}</Typography>;
  return (
    <>
      <Link component="button" type="button" variant="body2" onClick={() => setOpen(true)} sx={{ whiteSpace: 'nowrap' }}>
        {translate('resources.midjourney.image.view')}
      </Link>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="md">
        <DialogTitle>{translate('resources.midjourney.image.title')}</DialogTitle>
        <DialogContent>
          <Box
            component="img"
            src={safe}
            alt={translate('resources.midjourney.image.alt')}
            sx={{ display: 'block', maxWidth: '100%', maxHeight: '70vh', mx: 'auto' }}
          />
        </DialogContent>
        <DialogActions>
          <Button component="a" href={safe} target="_blank" rel="noopener noreferrer">
            {translate('resources.midjourney.image.open')}
          </Button>
          <Button onClick={() => setOpen(false)}>{translate('ra.action.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}

/**
 * The filters both task logs share: the time window (the screen's own default), the task id, and
 * for admins the channel and user; `resource` is where their labels live (`filters.*`).
 */
export function taskLogFilters<R extends RaRecord>(resource: string, idFilter: string): FieldSchema<R>[] {
  const label = (name: string) => `resources.${resource}.filters.${name}`;
  const admin = { permission: 'all_users' } as const;
  return [
    {
      source: 'start_timestamp',
      type: 'date',
      showInFilter: { alwaysOn: true, label: label('start_timestamp'), input: TimestampInput },
    },
    {
      source: 'end_timestamp',
      type: 'date',
      showInFilter: { alwaysOn: true, label: label('end_timestamp'), input: TimestampInput },
    },
    { source: idFilter, type: 'text', showInFilter: { alwaysOn: true, label: label(idFilter) } },
    { source: 'channel_id', type: 'number', ...admin, showInFilter: { label: label('channel_id') } },
    { source: 'username', type: 'text', ...admin, showInFilter: { label: label('username') } },
  ];
}

/** A column drawn by `render`; `adminOnly` ones need the `all_users` right. */
export function taskColumn<R extends RaRecord>(
  source: string,
  render: (record: R) => ReactNode,
  options: { adminOnly?: boolean; nowrap?: boolean } = {},
): FieldSchema<R> {
  return {
    source,
    type: 'virtual',
    showInList: true,
    render,
    ...(options.adminOnly ? { permission: 'all_users' } : {}),
    ...(options.nowrap ? { column: { nowrap: true } } : {}),
  };
}
