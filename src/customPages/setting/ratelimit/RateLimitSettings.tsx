/** The rate limit tab: per-user request and token limits, with per-group overrides. */
import type { FieldSpec } from '../operation/optionFields';
import { OptionSection } from '../operation/OptionSection';
import { useOptions } from '../useOptions';
import { OptionsGate } from '../operation/OptionsGate';
import { rateLimitGroup, tpmGroup } from './rateLimitGroup';

export const RATE_LIMIT_FIELDS: readonly FieldSpec[] = [
  { key: 'ModelRequestRateLimitDurationMinutes', kind: 'int', min: 0, hint: true },
  { key: 'ModelRequestRateLimitCount', kind: 'int', min: 0, hint: true },
  { key: 'ModelRequestRateLimitSuccessCount', kind: 'int', min: 1, hint: true },
  { key: 'ModelRequestRateLimitGroup', kind: 'json', check: rateLimitGroup, hint: true },
  { key: 'ModelRequestRateLimitTPM', kind: 'int', min: 0, hint: true },
  { key: 'ModelRequestRateLimitTPMGroup', kind: 'json', check: tpmGroup, hint: true },
  { key: 'ModelRequestRateLimitEnabled', kind: 'switch' },
];

export default function RateLimitSettings() {
  const options = useOptions();
  return (
    <OptionsGate options={options}>
      <OptionSection id="ratelimit" fields={RATE_LIMIT_FIELDS} options={options} />
    </OptionsGate>
  );
}
