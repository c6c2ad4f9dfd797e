import { Alert, Box, Typography } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { MjItem } from '../../../server/tasks/list-schemas';
import { storedStatus } from '../../status/status';
import { formatTimestamp } from '../schema';
import { drawingTimeRange, msToUnixSeconds } from '../task/format';
import {
  ChannelCell,
  DurationCell,
  ImageCell,
  LabelChip,
  LongTextCell,
  ProgressCell,
  UserCell,
  type TaskColumn,
} from '../task/parts';
import { TaskLogList } from '../task/TaskLogList';
import { labelOf, MJ_ACTION_LABELS, MJ_CODE_LABELS, MJ_STATUS_LABELS } from './labels';

const I18N = 'resources.midjourneys';
const t = (key: string) => `${I18N}.${key}`;

/** Every column of the drawing log in order; the channel and user columns are for admins only. */
const COLUMNS: TaskColumn<MjItem>[] = [
  {
    key: 'submit_time',
    render: (r) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(msToUnixSeconds(r.submit_time))}</Box>,
  },
  { key: 'duration', render: (r) => <DurationCell submit={r.submit_time} finish={r.finish_time} unitMs={1000} /> },
  { key: 'channel', adminOnly: true, render: (r) => <ChannelCell id={r.channel_id} name={r.channel_name} /> },
  { key: 'user', adminOnly: true, render: (r) => <UserCell id={r.user_id} name={r.username} /> },
  {
    key: 'action',
    render: (r) => (
      <LabelChip i18n={I18N} kind="action" group="actions" label={labelOf(MJ_ACTION_LABELS, r.action)} text={r.action} />
    ),
  },
  { key: 'mj_id', render: (r) => <Typography variant="body2">{r.mj_id}</Typography> },
  {
    key: 'code',
    render: (r) => <LabelChip i18n={I18N} kind="code" group="codes" label={labelOf(MJ_CODE_LABELS, r.code)} text="" />,
  },
  {
    key: 'status',
    render: (r) => (
      <LabelChip i18n={I18N} kind="status" group="statuses" label={labelOf(MJ_STATUS_LABELS, r.status)} text={r.status} />
    ),
  },
  { key: 'progress', render: (r) => <ProgressCell progress={r.progress} /> },
  { key: 'image_url', render: (r) => <ImageCell url={r.image_url} /> },
  { key: 'prompt', render: (r) => <LongTextCell text={r.prompt} title={t('fields.prompt')} /> },
  { key: 'prompt_en', render: (r) => <LongTextCell text={r.prompt_en} title={t('fields.prompt_en')} /> },
  { key: 'fail_reason', render: (r) => <LongTextCell text={r.fail_reason} title={t('fields.fail_reason')} /> },
];

/** Spec 2: admins are warned while the drawing callback (status flag mj_notify_enabled) is off. */
function NotifyBanner() {
  const translate = useTranslate();
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
export default function MidjourneyList() {
  return (
    <TaskLogList
      resource="midjourney"
      i18n={I18N}
      idFilter="mj_id"
      defaultRange={drawingTimeRange}
      columns={COLUMNS}
      adminBanner={<NotifyBanner />}
    />
  );
}
