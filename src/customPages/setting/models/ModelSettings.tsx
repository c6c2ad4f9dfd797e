/** The models tab: provider-specific settings for Gemini and Claude, and the global request options. */
import Stack from '@mui/material/Stack';
import { capabilityTable, headerMap, positiveIntMap, stringList, stringMap, type FieldSpec } from '../operation/optionFields';
import { OptionSection } from '../operation/OptionSection';
import { useOptions } from '../useOptions';
import { OptionsGate } from '../operation/OptionsGate';

/** Share of max_tokens given to thinking (0.1 to 1: below a tenth leaves thinking no room, above the whole leaves the answer none). */
const BUDGET = { kind: 'float', min: 0.1, max: 1, hint: true } as const;

export const GEMINI_FIELDS: readonly FieldSpec[] = [
  { key: 'gemini.safety_settings', kind: 'json', check: stringMap, hint: true },
  { key: 'gemini.version_settings', kind: 'json', check: stringMap, hint: true },
  { key: 'gemini.supported_imagine_models', kind: 'json', check: stringList, hint: true },
  { key: 'gemini.thinking_adapter_budget_tokens_percentage', ...BUDGET },
  { key: 'gemini.thinking_adapter_enabled', kind: 'switch', hint: true },
];

export const CLAUDE_FIELDS: readonly FieldSpec[] = [
  { key: 'claude.model_headers_settings', kind: 'json', check: headerMap, hint: true },
  { key: 'claude.default_max_tokens', kind: 'json', check: positiveIntMap, hint: true },
  { key: 'claude.thinking_adapter_budget_tokens_percentage', ...BUDGET },
  { key: 'claude.thinking_adapter_enabled', kind: 'switch', hint: true },
];

export const GLOBAL_FIELDS: readonly FieldSpec[] = [
  { key: 'general_setting.ping_interval_seconds', kind: 'int', min: 1, hint: true },
  { key: 'relay.model_capabilities', kind: 'json', check: capabilityTable, hint: true },
  { key: 'global.pass_through_request_enabled', kind: 'switch', hint: true },
  { key: 'relay.fit_native_requests', kind: 'switch', hint: true },
  { key: 'general_setting.ping_interval_enabled', kind: 'switch' },
];

export default function ModelSettings() {
  const options = useOptions();
  return (
    <OptionsGate options={options}>
      <Stack spacing={2}>
        <OptionSection id="gemini" fields={GEMINI_FIELDS} options={options} />
        <OptionSection id="claude" fields={CLAUDE_FIELDS} options={options} />
        <OptionSection id="global" fields={GLOBAL_FIELDS} options={options} />
      </Stack>
    </OptionsGate>
  );
}
