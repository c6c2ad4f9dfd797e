import { Chip, Typography } from '@mui/material';
import type { TaskItem } from '../../../server/tasks/list-schemas';
import { labelOf } from '../midjourney/labels';
import { formatTimestamp, type ResourceSchema } from '../schema';
import { taskTimeRange } from './format';
import { TASK_ACTION_LABELS, TASK_STATUS_LABELS } from './labels';
import { VideoCell } from './VideoCell';
import { ChannelCell, DurationCell, LabelChip, LongTextCell, ProgressCell, taskColumn, taskLogFilters, UserCell } from './parts';

const I18N = 'resources.task';

/**
 * /task: the task log (Suno music and lyrics, videos with their player). Admins see every user's tasks with the channel and
 * user columns and filters; everyone else their own. Opens on today through one hour ahead.
 */
const taskSchema: ResourceSchema<TaskItem> = {
  name: 'task',
  fields: [
    ...taskLogFilters<TaskItem>('task', 'task_id'),
    taskColumn('submit_time', (r) => formatTimestamp(r.submit_time), { nowrap: true }),
    taskColumn('finish_time', (r) => formatTimestamp(r.finish_time), { nowrap: true }),
    taskColumn('progress', (r) => <ProgressCell progress={r.progress} />),
    taskColumn('duration', (r) => <DurationCell submit={r.submit_time} finish={r.finish_time} unitMs={1} />),
    taskColumn('channel', (r) => <ChannelCell id={r.channel_id} name={r.channel_name} />, { adminOnly: true }),
    taskColumn('user', (r) => <UserCell id={r.user_id} name={r.username} />, { adminOnly: true }),
    taskColumn('platform', (r) =>
      r.platform ? <Chip size="small" variant="outlined" color="primary" label={r.platform} /> : null,
    ),
    taskColumn('action', (r) => (
      <LabelChip i18n={I18N} kind="action" group="actions" label={labelOf(TASK_ACTION_LABELS, r.action)} text={r.action} />
    )),
    taskColumn('task_id', (r) => <Typography variant="body2">{r.task_id}</Typography>),
    taskColumn('status', (r) => (
      <LabelChip i18n={I18N} kind="status" group="statuses" label={labelOf(TASK_STATUS_LABELS, r.status)} text={r.status} />
    )),
    taskColumn('fail_reason', (r) => <LongTextCell text={r.fail_reason} title={`${I18N}.fields.fail_reason`} />),
    taskColumn('result', (r) => <VideoCell platform={r.platform} status={r.status} taskId={r.task_id} />),
  ],
  list: { filterDefaults: taskTimeRange },
};

export default taskSchema;
