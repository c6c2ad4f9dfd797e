/**
 * Refusals of the server by their stable code, in Chinese: the server's own catalogue
 * (server/http/refusals.ts), so its wording exists once. `%{name}` is filled from the refusal's
 * params. Codes `area.reason` nest under their area, as react-admin's messages do.
 */
import { REFUSALS, type RefusalCode } from '../../../server/shared';

/**
 * Where the console says it otherwise: the server answers API clients in English for these, and
 * two texts space a Latin word or a number off the Chinese where the server's wording does not.
 */
const CONSOLE_WORDING: Partial<Record<RefusalCode, string>> = {
  'account.locked': '登录失败次数过多，该账户已被暂时锁定，请 %{minutes} 分钟后再试',
  'user.webhook_blocked': 'Webhook 地址不可用：%{detail}',
  'option.not_boolean': '%{key} 必须是 true 或 false',
  'option.not_integer': '%{key} 必须是整数',
  'option.not_number': '%{key} 必须是数字',
  'option.not_json': '%{key}：不是合法的 JSON 字符串',
  model_required: '请指定模型（model）',
  upgrade_required: '该接口只接受 WebSocket 连接',
  not_found: '未知的方法 %{method}',
  invalid_url: '无效的地址（%{method} %{path}）',
  model_does_not_exist: '模型 %{model} 不存在',
  task_not_found: '任务不存在',
  task_not_exist: '任务不存在',
  task_status_not_success: '任务尚未成功',
};

type Messages = { [key: string]: string | Messages };

function nested(): Messages {
  const table: Messages = {};
  for (const [code, message] of Object.entries(REFUSALS) as [RefusalCode, string][]) {
    const text = CONSOLE_WORDING[code] ?? message;
    const [area, reason] = code.split('.');
    if (reason === undefined) table[code] = text;
    else ((table[area!] ??= {}) as Messages)[reason] = text;
  }
  return table;
}

export const server_errors = nested();
