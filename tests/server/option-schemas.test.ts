/**
 * Every option has a rule for its values (server/options/values.ts) and the API enforces it: this
 * walks the option registry, derives values each option's rule refuses — a wrong type, one past each
 * bound, a choice that is not one, a JSON shape readers would misread, text with a NUL or over 64 KiB —
 * and sends each. Every one is refused with a stable code naming the option and nothing is stored;
 * the default and the bounds themselves are accepted.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { OPTION_REGISTRY, type OptionDef, type OptionKey } from '../../server/options/registry.js';
import type { JsonShape } from '../../server/options/values.js';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

let tg: TestGateway;
let root: ApiClient;
beforeAll(async () => {
  tg = await startTestGateway('sqlite');
  root = await setupRoot(tg);
});
afterAll(async () => tg?.close());

/** JSON each shape refuses, with the refusal's code. */
const BAD_JSON: Record<JsonShape, Array<[string, string]>> = {
  number_map: [
    ['5', 'option.json_object'],
    ['[1,2]', 'option.json_object'],
    ['{"m":-1}', 'option.json_number_values'],
    ['{"m":"1"}', 'option.json_number_values'],
  ],
  string_map: [
    ['[]', 'option.json_object'],
    ['{"g":1}', 'option.json_string_values'],
  ],
  positive_int_map: [
    ['{"m":0}', 'option.json_positive_int_values'],
    ['{"m":1.5}', 'option.json_positive_int_values'],
  ],
  count_map: [
    ['{"g":-1}', 'option.json_count_values'],
    ['null', 'option.json_object'],
  ],
  count_pair_map: [
    ['{"g":[-1,2]}', 'option.json_count_pairs'],
    ['{"g":[1]}', 'option.json_count_pairs'],
  ],
  header_map: [['{"m":{"h":1}}', 'option.json_header_values']],
  string_list: [
    ['{}', 'option.json_string_list'],
    ['[1]', 'option.json_string_list'],
  ],
  chat_list: [
    ['{}', 'option.json_chats'],
    ['[1]', 'option.json_chats'],
  ],
};

/**
 * Options whose form a check of their own decides (the family console's settings), with values it
 * refuses. Each option with a check must be listed here.
 */
const OBJECT_LIST: Array<[string, string]> = [
  ['{}', 'option.not_object_list'],
  ['[1]', 'option.not_object_list'],
];
const ACTIVE_HTML: Array<[string, string]> = [
  ['<script>alert(1)</script>', 'option.unsafe_html'],
  ['<img src=x onerror=alert(1)>', 'option.unsafe_html'],
];
const CHECKED: Record<string, Array<[string, string]>> = {
  'relay.model_fallbacks': [
    ['[]', 'option.bad_model_fallbacks'],
    ['{"a":"b"}', 'option.bad_model_fallbacks'],
    ['{"a":[{"models":["b"],"on":["404"]}]}', 'option.bad_model_fallbacks'],
  ],
  'channel_affinity_setting.rules': [
    ['{}', 'option.bad_affinity_rules'],
    [
      '[{"name":"x","model_regex":["("],"path_regex":[],"key_sources":[{"type":"gjson","path":"a"}]}]',
      'option.bad_affinity_rules',
    ],
    ['[{"name":"x","model_regex":[],"path_regex":[],"key_sources":[]}]', 'option.bad_affinity_rules'],
  ],
  'relay.model_capabilities': [
    ['[]', 'option.bad_model_capabilities'],
    ['{"gpt-x":{"reason":true}}', 'option.bad_model_capabilities'],
    ['{"gpt-x":{"outputLimit":0}}', 'option.bad_model_capabilities'],
  ],
  'global.thinking_model_blacklist': [
    ['{}', 'option.not_string_list'],
    ['[1]', 'option.not_string_list'],
  ],
  'global.chat_completions_to_responses_policy': [['[]', 'option.not_json_object']],
  'console_setting.api_info': OBJECT_LIST,
  'console_setting.announcements': OBJECT_LIST,
  'console_setting.faq': OBJECT_LIST,
  'console_setting.uptime_kuma_groups': [
    ['[{"categoryName":"a","url":"ftp://x","slug":"s"}]', 'option.bad_uptime_groups'],
    ['{}', 'option.bad_uptime_groups'],
  ],
  'legal.user_agreement': ACTIVE_HTML,
  'legal.privacy_policy': ACTIVE_HTML,
};

/** Values the rule refuses, each with the code it is refused with. */
function refusedValues(key: string, def: OptionDef): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  if (def.type === 'bool') out.push(['yes', 'option.not_boolean'], ['1', 'option.not_boolean']);
  if (def.type === 'int') out.push(['1.5', 'option.not_integer'], ['9007199254740993', 'option.not_integer']);
  if (def.type === 'float') out.push(['NaN', 'option.not_number'], ['1e999', 'option.not_number']);
  if (def.type === 'int' || def.type === 'float') {
    const both = def.min !== undefined && def.max !== undefined;
    if (def.min !== undefined) out.push([String(def.min - 1), both ? 'option.out_of_range' : 'option.below_minimum']);
    if (def.max !== undefined) out.push([String(def.max + 1), both ? 'option.out_of_range' : 'option.above_maximum']);
  }
  if (def.type === 'json') out.push(['{not json', 'option.not_json'], ...(def.shape ? BAD_JSON[def.shape] : []));
  if (def.check) out.push(...CHECKED[key]!);
  if (def.choices) out.push(['none-of-these', 'option.not_choice']);
  // Every text, whatever its option, passes the API's text rule first.
  out.push(['a\u0000b', 'request.invalid_params'], ['x'.repeat(65_536), 'request.invalid_params']);
  return out;
}

const stored = async (key: string) =>
  (await tg.gateway.ctx.db.selectFrom('options').select('value').where('key', '=', key).executeTakeFirst())?.value;

it('gives every number option a range and every JSON option a shape or a check of its own', () => {
  for (const [key, def] of Object.entries(OPTION_REGISTRY) as Array<[OptionKey, OptionDef]>) {
    if (def.type === 'int' || def.type === 'float') expect(def.min, key).toBeDefined();
    if (def.type === 'json') expect(def.shape ?? def.check, key).toBeDefined();
    if (def.check) expect(CHECKED[key], `${key}: values its check refuses`).toBeDefined();
  }
});

it('refuses, by a stable code naming the option, every value outside an option’s rule, and stores nothing', async () => {
  const problems: string[] = [];
  for (const [key, def] of Object.entries(OPTION_REGISTRY) as Array<[OptionKey, OptionDef]>) {
    const before = await stored(key);
    for (const [value, code] of refusedValues(key, def)) {
      const res = await root.put('/api/option/', { key, value });
      const shown = value.length > 40 ? `${value.slice(0, 20)}…(${value.length})` : JSON.stringify(value);
      if (res.status >= 500 || res.body.success !== false || res.body.code !== code) {
        problems.push(`${key} = ${shown}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      } else if (code.startsWith('option.') && res.body.params?.key !== key) problems.push(`${key} = ${shown}: no key in params`);
    }
    if ((await stored(key)) !== before) problems.push(`${key}: a refused value was stored`);
  }
  expect(problems).toEqual([]);
}, 120_000);

it('accepts each option’s default and the bounds of its range', async () => {
  const problems: string[] = [];
  for (const [key, def] of Object.entries(OPTION_REGISTRY) as Array<[OptionKey, OptionDef]>) {
    const values = [def.default, ...[def.min, def.max].filter((n) => n !== undefined).map(String)];
    for (const value of values) {
      const res = await root.put('/api/option/', { key, value });
      if (res.body.success !== true) problems.push(`${key} = ${value}: ${JSON.stringify(res.body).slice(0, 160)}`);
    }
    await root.put('/api/option/', { key, value: def.default });
  }
  expect(problems).toEqual([]);
}, 120_000);
