import { Box, Chip, Typography } from '@mui/material';
import type { TaskItem } from '../../../server/tasks/list-schemas';
import { labelOf } from '../midjourney/labels';
import { formatTimestamp } from '../schema';
import { taskTimeRange } from './format';
import { TASK_ACTION_LABELS, TASK_STATUS_LABELS } from './labels';
import { ChannelCell, DurationCell, LabelChip, LongTextCell, ProgressCell, UserCell, type TaskColumn } from './parts';
import { TaskLogList } from './TaskLogList';

const I18N = 'resources.tasks';

const Time = ({ seconds }: { seconds: number }) => <Box sx={{ whiteSpace: 'nowrap' }}>{formatTimestamp(seconds)}</Box>;

/** Every column of the task log in order; the channel and user columns are for admins only. */
const COLUMNS: TaskColumn<TaskItem>[] = [
  { key: 'submit_time', render: (r) => <Time seconds={r.submit_time} /> },
  { key: 'finish_time', render: (r) => <Time seconds={r.finish_time} /> },
  { key: 'progress', render: (r) => <ProgressCell progress={r.progress} /> },
  { key: 'duration', render: (r) => <DurationCell submit={r.submit_time} finish={r.finish_time} unitMs={1} /> },
  { key: 'channel', adminOnly: true, render: (r) => <ChannelCell id={r.channel_id} name={r.channel_name} /> },
  { key: 'user', adminOnly: true, render: (r) => <UserCell id={r.user_id} name={r.username} /> },
  {
    key: 'platform',
    render: (r) => (r.platform ? <Chip size="small" variant="outlined" color="primary" label={r.platform} /> : null),
  },
  {
    key: 'action',
    render: (r) => (
      <LabelChip i18n={I18N} kind="action" group="actions" label={labelOf(TASK_ACTION_LABELS, r.action)} text={r.action} />
    ),
  },
  { key: 'task_id', render: (r) => <Typography variant="body2">{r.task_id}</Typography> },
  {
    key: 'status',
    render: (r) => (
      <LabelChip i18n={I18N} kind="status" group="statuses" label={labelOf(TASK_STATUS_LABELS, r.status)} text={r.status} />
    ),
  },
  { key: 'fail_reason', render: (r) => <LongTextCell text={r.fail_reason} title={`${I18N}.fields.fail_reason`} /> },
];

/**
 * /task: the task log (Suno music and lyrics). Admins see every user's tasks with the channel and
 * user columns and filters; everyone else their own. Opens on today through one hour ahead.
 */
export default function TaskList() {
  return <TaskLogList resource="task" i18n={I18N} idFilter="task_id" defaultRange={taskTimeRange} columns={COLUMNS} />;
}
