import { Alert, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { MjItem } from '../../../server/tasks/list-schemas';
import { currentRole, useAccessPolicy } from '../../authProvider/access';
import { storedStatus } from '../../status/status';
import { formatTimestamp, type ResourceSchema } from '../schema';
import { drawingTimeRange, msToUnixSeconds } from '../task/format';
import {
  ChannelCell,
  DurationCell,
  ImageCell,
  LabelChip,
  LongTextCell,
  ProgressCell,
  taskColumn,
  taskLogFilters,
  UserCell,
} from '../task/parts';
import { labelOf, MJ_ACTION_LABELS, MJ_CODE_LABELS, MJ_STATUS_LABELS } from './labels';

const I18N = 'resources.midjourney';
const t = (key: string) => `${I18N}.${key}`;

/** Spec 2: admins are warned while the drawing callback (status flag mj_notify_enabled) is off. */
function NotifyBanner() {
  const translate = useTranslate();
  const may = useAccessPolicy();
  if (!may(currentRole(), { resource: 'midjourney', action: 'all_users' })) return null;
  if (storedStatus()?.mj_notify_enabled === true) return null;
  return (
    <Alert severity="warning" sx={{ mb: 1 }}>
      {translate(t('notify_banner'))}
    </Alert>
  );
}

/**
 * /midjourney: the drawing log. Admins see every user's tasks with the channel and user columns
 * and filters; everyone else their own. Opens on the last 30 days through one hour ahead.
 */
const midjourneySchema: ResourceSchema<MjItem> = {
  name: 'midjourney',
  fields: [
    ...taskLogFilters<MjItem>('midjourney', 'mj_id'),
    taskColumn('submit_time', (r) => formatTimestamp(msToUnixSeconds(r.submit_time)), { nowrap: true }),
    taskColumn('duration', (r) => <DurationCell submit={r.submit_time} finish={r.finish_time} unitMs={1000} />),
    taskColumn('channel', (r) => <ChannelCell id={r.channel_id} name={r.channel_name} />, { adminOnly: true }),
    taskColumn('user', (r) => <UserCell id={r.user_id} name={r.username} />, { adminOnly: true }),
    taskColumn('action', (r) => (
      <LabelChip i18n={I18N} kind="action" group="actions" label={labelOf(MJ_ACTION_LABELS, r.action)} text={r.action} />
    )),
    taskColumn('mj_id', (r) => <Typography variant="body2">{r.mj_id}</Typography>),
    taskColumn('code', (r) => (
      <LabelChip i18n={I18N} kind="code" group="codes" label={labelOf(MJ_CODE_LABELS, r.code)} text="" />
    )),
    taskColumn('status', (r) => (
      <LabelChip i18n={I18N} kind="status" group="statuses" label={labelOf(MJ_STATUS_LABELS, r.status)} text={r.status} />
    )),
    taskColumn('progress', (r) => <ProgressCell progress={r.progress} />),
    taskColumn('image_url', (r) => <ImageCell url={r.image_url} />),
    taskColumn('prompt', (r) => <LongTextCell text={r.prompt} title={t('fields.prompt')} />),
    taskColumn('prompt_en', (r) => <LongTextCell text={r.prompt_en} title={t('fields.prompt_en')} />),
    taskColumn('fail_reason', (r) => <LongTextCell text={r.fail_reason} title={t('fields.fail_reason')} />),
  ],
  list: { header: NotifyBanner, filterDefaults: drawingTimeRange },
};

export default midjourneySchema;
