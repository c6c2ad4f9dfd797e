/**
 * Baidu ERNIE (wenxinworkshop) chat endpoints: each model is served at its own path below
 * `/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/`. Names from Baidu's model list; a model missing here
 * is sent to its lower-cased name, which is the rule for the newer models (e.g. ERNIE-4.0-Turbo-8K →
 * ernie-4.0-turbo-8k).
 */
export const BAIDU_CHAT_PREFIX = '/rpc/2.0/ai_custom/v1/wenxinworkshop/chat/';

const CHAT_ENDPOINTS: Record<string, string> = {
  'ERNIE-4.0-8K': 'completions_pro',
  'ERNIE-Bot-4': 'completions_pro',
  'ERNIE-4.0': 'completions_pro',
  'ERNIE-4.0-8K-Preview-0518': 'completions_adv_pro',
  'ERNIE-3.5-8K': 'completions',
  'ERNIE-Bot': 'completions',
  'ERNIE-Bot-8K': 'ernie_bot_8k',
  'ERNIE-Bot-turbo': 'eb-instant',
  'ERNIE-Lite-8K-0922': 'eb-instant',
  'ERNIE-Lite-8K-0308': 'ernie-lite-8k',
  'ERNIE-Speed': 'ernie_speed',
  'ERNIE-Speed-8K': 'ernie_speed',
  'ERNIE-Character-8K': 'ernie-char-8k',
  'ERNIE-Functions-8K': 'ernie-func-8k',
  'ERNIE-Speed-AppBuilder': 'ai_apaas',
  'BLOOMZ-7B': 'bloomz_7b1',
};

/** The endpoint path segment of a model. */
export function baiduChatEndpoint(model: string): string {
  return CHAT_ENDPOINTS[model] ?? model.toLowerCase();
}
