import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { MjItem } from '../../server/tasks/list-schemas';
import { ResourceList } from '../../src/resources/schema';
import midjourneySchema from '../../src/resources/midjourney/schema';
import { callsTo } from './harness';
import { setUpTaskLog } from './task-log-harness';

const SUBMIT = 1_714_550_400_000;

function row(id: number, fields: Partial<MjItem>): MjItem {
  return {
    id,
    created_at: SUBMIT / 1000,
    submit_time: SUBMIT,
    start_time: SUBMIT + 1000,
    finish_time: 0,
    user_id: 2,
    username: 'alice',
    channel_id: 3,
    channel_name: 'mj-main',
    action: 'IMAGINE',
    mj_id: `mj-${id}`,
    code: 1,
    status: 'SUBMITTED',
    progress: '0%',
    image_url: '',
    prompt: '',
    prompt_en: '',
    fail_reason: '',
    ...fields,
  };
}

const adminRows = (): MjItem[] => [
  row(1, {
    status: 'SUCCESS',
    progress: '100%',
    finish_time: SUBMIT + 45_000,
    image_url: 'https://cdn.example.com/fox.png',
    prompt: 'a red fox in the snow, watercolor, very detailed and long enough to be cut',
    prompt_en: 'a red fox',
  }),
  row(2, {
    action: 'UPSCALE',
    code: 22,
    status: 'FAILURE',
    finish_time: SUBMIT + 90_500,
    fail_reason: 'banned prompt',
    image_url: 'javascript:alert(1)',
  }),
  row(3, {
    action: 'NEW_THING',
    code: 5,
    status: 'IN_PROGRESS',
    progress: '45%',
    user_id: 4,
    username: 'bob',
    channel_id: 6,
    channel_name: '',
  }),
];

const { asAdmin, asUser, renderList, rowOf, headers, lastQuery } = setUpTaskLog({
  api: '/api/mj',
  route: '/midjourney',
  List: () => <ResourceList schema={midjourneySchema} />,
  adminRows,
});
const BANNER = /当前未开启 Midjourney 回调/;

describe('drawing log: admin and user views', () => {
  it('shows an admin every user from /api/mj/ with the channel and user columns, filters and the notify banner', async () => {
    asAdmin();
    renderList();
    const first = await rowOf('mj-1');
    expect(headers()).toEqual([
      '提交时间',
      '花费时间',
      '渠道',
      '用户',
      '类型',
      '任务ID',
      '提交结果',
      '任务状态',
      '进度',
      '结果图片',
      'Prompt',
      'PromptEn',
      '失败原因',
    ]);
    expect(within(first).getByText('mj-main')).toBeTruthy();
    expect(within(first).getByText('alice')).toBeTruthy();
    expect(within(await rowOf('mj-3')).getByText('bob')).toBeTruthy();
    expect(callsTo('GET', '/api/mj/')).toHaveLength(1);
    expect(callsTo('GET', '/api/mj/self/')).toHaveLength(0);
    // The admin filters wait behind "more filters".
    await userEvent.click(screen.getByRole('button', { name: '更多筛选' }));
    expect(screen.getByLabelText('渠道 ID')).toBeTruthy();
    expect(screen.getByLabelText('用户名称')).toBeTruthy();
    expect(screen.getByText(BANNER)).toBeTruthy();
  });

  it('hides the banner once the callback is on', async () => {
    localStorage.setItem('status', JSON.stringify({ mj_notify_enabled: true }));
    asAdmin();
    renderList();
    await rowOf('mj-1');
    expect(screen.queryByText(BANNER)).toBeNull();
  });

  it('shows a user their own rows from /api/mj/self/ without the admin columns, filters or banner', async () => {
    asUser();
    renderList();
    const first = await rowOf('mj-1');
    const shown = headers();
    expect(shown).toEqual(expect.arrayContaining(['提交时间', '类型', '任务ID', '任务状态', '结果图片']));
    expect(shown).not.toContain('渠道');
    expect(shown).not.toContain('用户');
    expect(within(first).queryByText('mj-main')).toBeNull();
    expect(callsTo('GET', '/api/mj/self/')).toHaveLength(1);
    expect(callsTo('GET', '/api/mj/')).toHaveLength(0);
    // No hidden filters at all for a user: the admin ones are not offered.
    expect(screen.queryByRole('button', { name: '更多筛选' })).toBeNull();
    expect(screen.queryByLabelText('渠道 ID')).toBeNull();
    expect(screen.queryByLabelText('用户名称')).toBeNull();
    expect(screen.queryByText(BANNER)).toBeNull();
  });
});

describe('drawing log: filters', () => {
  it('opens on the last 30 days through one hour ahead, in seconds, with the remembered page size', async () => {
    localStorage.setItem('page-size', '20');
    asUser();
    const now = Math.floor(Date.now() / 1000);
    renderList();
    await rowOf('mj-1');
    const query = lastQuery('/api/mj/self/');
    expect(query).toMatchObject({ p: '1', page_size: '20' });
    expect(Number(query?.start_timestamp)).toBeGreaterThanOrEqual(now - 30 * 86400);
    expect(Number(query?.start_timestamp)).toBeLessThan(now - 30 * 86400 + 30);
    expect(Number(query?.end_timestamp)).toBeGreaterThanOrEqual(now + 3600);
    expect(Number(query?.end_timestamp)).toBeLessThan(now + 3600 + 30);
  });

  it('sends the task id, channel, user and time range, trimmed', async () => {
    asAdmin();
    renderList();
    await rowOf('mj-1');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('任务 ID'), ' mj-2 ');
    await user.click(screen.getByRole('button', { name: '更多筛选' }));
    await user.type(screen.getByLabelText('渠道 ID'), '3');
    await user.type(screen.getByLabelText('用户名称'), ' alice ');
    fireEvent.change(screen.getByLabelText('起始时间'), { target: { value: '2024-05-01T08:30:00' } });
    fireEvent.change(screen.getByLabelText('结束时间'), { target: { value: '2024-05-02T09:00:00' } });
    await waitFor(
      () =>
        expect(lastQuery('/api/mj/')).toEqual({
          p: '1',
          page_size: '10',
          mj_id: 'mj-2',
          channel_id: '3',
          username: 'alice',
          start_timestamp: String(new Date('2024-05-01T08:30:00').getTime() / 1000),
          end_timestamp: String(new Date('2024-05-02T09:00:00').getTime() / 1000),
        }),
      { timeout: 3000 },
    );
  });
});

describe('drawing log: cells', () => {
  it('shows the action, submit result, status, progress and time taken', async () => {
    asUser();
    renderList();
    const done = await rowOf('mj-1');
    expect(within(done).getByText('绘图')).toBeTruthy();
    expect(within(done).getByText('已提交')).toBeTruthy();
    expect(within(done).getByText('成功')).toBeTruthy();
    expect(within(done).getByText('100%')).toBeTruthy();
    expect(within(done).getByText('45 秒').closest('[data-slow]')?.getAttribute('data-slow')).toBe('false');

    const failed = await rowOf('mj-2');
    expect(within(failed).getByText('放大')).toBeTruthy();
    expect(within(failed).getByText('重复提交')).toBeTruthy();
    expect(within(failed).getByText('失败')).toBeTruthy();
    expect(within(failed).getByText('90.5 秒').closest('[data-slow]')?.getAttribute('data-slow')).toBe('true');
    expect(within(failed).getByText('banned prompt')).toBeTruthy();
    // A javascript: address is never shown as an image or a link.
    expect(within(failed).queryByRole('button', { name: '查看图片' })).toBeNull();

    const running = await rowOf('mj-3');
    // Unknown values: the action as sent, the code as unknown.
    expect(within(running).getByText('NEW_THING')).toBeTruthy();
    expect(within(running).getByText('未知')).toBeTruthy();
    expect(within(running).getByText('执行中')).toBeTruthy();
    expect(within(running).getByText('45%')).toBeTruthy();
    expect(within(running).getByRole('progressbar').getAttribute('aria-valuenow')).toBe('45');
    // Unfinished: no time taken yet.
    expect(within(running).getAllByText('无').length).toBeGreaterThan(0);
  });

  it('shows the submit time from milliseconds', async () => {
    asUser();
    renderList();
    const d = new Date(SUBMIT);
    const pad = (n: number) => String(n).padStart(2, '0');
    const text = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
    expect(within(await rowOf('mj-1')).getByText(text)).toBeTruthy();
  });

  it('previews the result image and shows a whole prompt in a dialog', async () => {
    asUser();
    renderList();
    const user = userEvent.setup();
    await user.click(within(await rowOf('mj-1')).getByRole('button', { name: '查看图片' }));
    const preview = await screen.findByRole('dialog', { name: '图片预览' });
    expect(within(preview).getByRole('img', { name: '绘图结果' }).getAttribute('src')).toBe('https://cdn.example.com/fox.png');
    expect(within(preview).getByRole('link', { name: '在新标签页打开' }).getAttribute('href')).toBe(
      'https://cdn.example.com/fox.png',
    );
    await user.click(within(preview).getByRole('button', { name: '关闭' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    const prompt = 'a red fox in the snow, watercolor, very detailed and long enough to be cut';
    await user.click(within(await rowOf('mj-1')).getByRole('button', { name: prompt }));
    const dialog = await screen.findByRole('dialog', { name: 'Prompt' });
    expect(within(dialog).getByText(prompt)).toBeTruthy();
  });
});
