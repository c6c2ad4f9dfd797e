import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TaskItem } from '../../server/tasks/list-schemas';
import { ResourceList } from '../../src/resources/schema';
import taskSchema from '../../src/resources/task/schema';
import { callsTo } from './harness';
import { setUpTaskLog } from './task-log-harness';

const SUBMIT = 1_714_550_400;

function row(id: number, fields: Partial<TaskItem>): TaskItem {
  return {
    id,
    created_at: SUBMIT,
    submit_time: SUBMIT,
    start_time: 0,
    finish_time: 0,
    user_id: 2,
    username: 'alice',
    channel_id: 5,
    channel_name: 'suno-main',
    platform: 'suno',
    action: 'MUSIC',
    task_id: `suno-${id}`,
    status: 'SUBMITTED',
    progress: '',
    fail_reason: '',
    ...fields,
  };
}

const adminRows = (): TaskItem[] => [
  row(1, { status: 'SUCCESS', progress: '100%', finish_time: SUBMIT + 30 }),
  row(2, { action: 'LYRICS', status: 'FAILURE', finish_time: SUBMIT + 75, fail_reason: 'upstream refused the lyrics' }),
  row(3, { status: 'QUEUED', user_id: 4, username: 'bob' }),
  row(4, { status: '', progress: '10%' }),
  row(5, {
    platform: 'video',
    action: 'VIDEO',
    task_id: 'video_5',
    status: 'SUCCESS',
    progress: '100%',
    finish_time: SUBMIT + 90,
  }),
];

const { asAdmin, asUser, renderList, rowOf, headers, lastQuery } = setUpTaskLog({
  api: '/api/task',
  route: '/task',
  List: () => <ResourceList schema={taskSchema} />,
  adminRows,
});

describe('task log: admin and user views', () => {
  it('shows an admin every user from /api/task/ with the channel and user columns and filters', async () => {
    asAdmin();
    renderList();
    const first = await rowOf('suno-1');
    expect(headers()).toEqual([
      '提交时间',
      '结束时间',
      '进度',
      '花费时间',
      '渠道',
      '用户',
      '平台',
      '类型',
      '任务ID',
      '任务状态',
      '失败原因',
      '结果',
    ]);
    expect(within(first).getByText('suno-main')).toBeTruthy();
    expect(within(first).getByText('alice')).toBeTruthy();
    expect(within(await rowOf('suno-3')).getByText('bob')).toBeTruthy();
    expect(callsTo('GET', '/api/task/')).toHaveLength(1);
    expect(callsTo('GET', '/api/task/self/')).toHaveLength(0);
    // The admin filters wait behind "more filters".
    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    expect(screen.getByLabelText('渠道 ID')).toBeTruthy();
    expect(screen.getByLabelText('用户名称')).toBeTruthy();
    // The drawing callback banner belongs to the drawing log only.
    expect(screen.queryByText(/Midjourney/)).toBeNull();
  });

  it('shows a user their own rows from /api/task/self/ without the admin columns or filters', async () => {
    asUser();
    renderList();
    const first = await rowOf('suno-1');
    expect(headers()).toEqual([
      '提交时间',
      '结束时间',
      '进度',
      '花费时间',
      '平台',
      '类型',
      '任务ID',
      '任务状态',
      '失败原因',
      '结果',
    ]);
    expect(within(first).queryByText('suno-main')).toBeNull();
    expect(callsTo('GET', '/api/task/self/')).toHaveLength(1);
    expect(callsTo('GET', '/api/task/')).toHaveLength(0);
    // No hidden filters at all for a user: the admin ones are not offered.
    expect(screen.queryByRole('button', { name: '更多筛选' })).toBeNull();
    expect(screen.queryByLabelText('渠道 ID')).toBeNull();
    expect(screen.queryByLabelText('用户名称')).toBeNull();
  });
});

describe('task log: filters', () => {
  it('opens on today from midnight through one hour ahead, in seconds, with the remembered page size', async () => {
    localStorage.setItem('page-size', '50');
    asUser();
    const now = Math.floor(Date.now() / 1000);
    renderList();
    await rowOf('suno-1');
    const midnight = new Date();
    midnight.setHours(0, 0, 0, 0);
    const query = lastQuery('/api/task/self/');
    expect(query).toMatchObject({ p: '1', page_size: '50', start_timestamp: String(midnight.getTime() / 1000) });
    expect(Number(query?.end_timestamp)).toBeGreaterThanOrEqual(now + 3600);
    expect(Number(query?.end_timestamp)).toBeLessThan(now + 3600 + 30);
  });

  it('sends the task id, channel, user and time range, trimmed', async () => {
    asAdmin();
    renderList();
    await rowOf('suno-1');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('任务 ID'), '  suno-2 ');
    await user.click(screen.getByRole('button', { name: '更多筛选' }));
    await user.type(screen.getByLabelText('渠道 ID'), '5');
    await user.type(screen.getByLabelText('用户名称'), 'bob ');
    fireEvent.change(screen.getByLabelText('起始时间'), { target: { value: '2024-05-01T00:00:00' } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: '2024-05-01T23:59:59' } });
    await waitFor(
      () =>
        expect(lastQuery('/api/task/')).toEqual({
          p: '1',
          page_size: '10',
          task_id: 'suno-2',
          channel_id: '5',
          username: 'bob',
          start_timestamp: String(new Date('2024-05-01T00:00:00').getTime() / 1000),
          end_timestamp: String(new Date('2024-05-01T23:59:59').getTime() / 1000),
        }),
      { timeout: 3000 },
    );
  });

  it('a user filters by task id on their own list', async () => {
    asUser();
    renderList();
    await rowOf('suno-1');
    await userEvent.type(screen.getByLabelText('任务 ID'), 'suno-4');
    await waitFor(() => expect(lastQuery('/api/task/self/')).toMatchObject({ task_id: 'suno-4' }), { timeout: 3000 });
    expect(lastQuery('/api/task/self/')).not.toHaveProperty('channel_id');
  });
});

describe('task log: cells', () => {
  it('shows the platform, action, status, progress, time taken and failure reason', async () => {
    asUser();
    renderList();
    const done = await rowOf('suno-1');
    expect(within(done).getByText('suno')).toBeTruthy();
    expect(within(done).getByText('生成音乐')).toBeTruthy();
    expect(within(done).getByText('成功')).toBeTruthy();
    expect(within(done).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('100');
    expect(within(done).getByText('30 秒').closest('[data-slow]')?.getAttribute('data-slow')).toBe('false');

    const failed = await rowOf('suno-2');
    expect(within(failed).getByText('生成歌词')).toBeTruthy();
    expect(within(failed).getByText('失败')).toBeTruthy();
    expect(within(failed).getByText('75 秒').closest('[data-slow]')?.getAttribute('data-slow')).toBe('true');
    expect(within(failed).getByText('upstream refused the lyrics')).toBeTruthy();

    expect(within(await rowOf('suno-3')).getByText('排队中')).toBeTruthy();
    const submitting = await rowOf('suno-4');
    expect(within(submitting).getByText('提交中')).toBeTruthy();
    expect(within(submitting).getByText('10%')).toBeTruthy();
    // Unfinished: no time taken.
    expect(within(submitting).getByText('无')).toBeTruthy();
  });

  it("plays a finished video from the gateway's own owner-checked address, and offers no player elsewhere", async () => {
    asUser();
    renderList();
    const video = await rowOf('video_5');
    expect(within(video).getByText('生成视频')).toBeTruthy();
    expect(within(await rowOf('suno-1')).queryByRole('button', { name: '播放' })).toBeNull();
    await userEvent.click(within(video).getByRole('button', { name: '播放' }));
    const player = await screen.findByTestId('task-video');
    expect(player.getAttribute('src')).toBe('/api/task/video/video_5/content');
    expect(screen.getByText('视频 video_5')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByTestId('task-video')).toBeNull());
  });

  it('shows submit and finish times in seconds', async () => {
    asUser();
    renderList();
    const format = (seconds: number) => {
      const d = new Date(seconds * 1000);
      const pad = (n: number) => String(n).padStart(2, '0');
      return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    };
    const done = await rowOf('suno-1');
    expect(within(done).getByText(format(SUBMIT))).toBeTruthy();
    expect(within(done).getByText(format(SUBMIT + 30))).toBeTruthy();
  });
});
