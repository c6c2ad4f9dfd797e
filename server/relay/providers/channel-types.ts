/**
 * Every channel type, id → its provider's manifest: the one list the channel tables, the input checks
 * and the console's channel form are derived from. Pure data (the console imports it too). A type
 * whose manifest is not `compatible` also needs its provider in registry.ts, which the compiler asks for.
 */
import type { ChannelTypeManifest } from './manifest.js';
import { COMPATIBLE_TYPES as C } from './openai-compatible/channel-types.js';
import { midjourneyProxyPlusType, midjourneyProxyType, sunoType } from './task-platforms/channel-types.js';
import { azureType } from './azure/channel-type.js';
import { ollamaType } from './ollama/channel-type.js';
import { palmType } from './palm/channel-type.js';
import { claudeType } from './claude/channel-type.js';
import { baiduType } from './baidu/channel-type.js';
import { zhipuType } from './zhipu/channel-type.js';
import { iflytekType } from './iflytek/channel-type.js';
import { aiProxyLibraryType } from './aiproxy-library/channel-type.js';
import { tencentType } from './tencent/channel-type.js';
import { geminiType } from './gemini/channel-type.js';
import { bedrockType } from './bedrock/channel-type.js';
import { cohereType } from './cohere/channel-type.js';
import { minimaxType } from './minimax/channel-type.js';
import { difyType } from './dify/channel-type.js';
import { jinaType } from './jina/channel-type.js';
import { vertexType } from './vertex/channel-type.js';
import { cozeType } from './coze/channel-type.js';
import { soraType } from './sora/channel-type.js';
import { klingType } from './kling/channel-type.js';
import { seedanceType } from './seedance/channel-type.js';

export const CHANNEL_TYPES = {
  1: C.openai,
  2: midjourneyProxyType,
  3: azureType,
  4: ollamaType,
  5: midjourneyProxyPlusType,
  8: C.custom,
  11: palmType,
  14: claudeType,
  15: baiduType,
  16: zhipuType,
  17: C.ali,
  18: iflytekType,
  19: C.ai360,
  20: C.openrouter,
  21: aiProxyLibraryType,
  22: C.fastgpt,
  23: tencentType,
  24: geminiType,
  25: C.moonshot,
  26: C.zhipuV4,
  31: C.lingyi,
  33: bedrockType,
  34: cohereType,
  35: minimaxType,
  36: sunoType,
  37: difyType,
  38: jinaType,
  39: C.cloudflare,
  40: C.siliconCloud,
  41: vertexType,
  42: C.mistral,
  43: C.deepseek,
  44: C.m3e,
  45: C.volcengine,
  46: C.baiduV2,
  47: C.xinference,
  48: C.xai,
  49: cozeType,
  50: klingType,
  54: seedanceType,
  55: soraType,
} as const satisfies Record<number, ChannelTypeManifest>;
