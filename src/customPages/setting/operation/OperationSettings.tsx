/**
 * The operation tab: general, drawing, sensitive words, logs (with cleanup), data dashboard,
 * monitoring, routing and quota cards, each saved on its own, and the ratio settings with their sub-tabs.
 */
import Stack from '@mui/material/Stack';
import { useOptions } from '../useOptions';
import { OptionsGate } from './OptionsGate';
import { LogCleanup } from './LogCleanup';
import { OptionSection } from './OptionSection';
import { RatioSettings } from './RatioSettings';
import {
  DASHBOARD_FIELDS,
  DRAWING_FIELDS,
  GENERAL_FIELDS,
  LOG_FIELDS,
  MONITORING_FIELDS,
  QUOTA_FIELDS,
  ROUTING_FIELDS,
  SENSITIVE_FIELDS,
} from './sections';

export default function OperationSettings() {
  const options = useOptions();
  return (
    <OptionsGate options={options}>
      <Stack spacing={2}>
        <OptionSection id="general" fields={GENERAL_FIELDS} options={options} />
        <OptionSection id="drawing" fields={DRAWING_FIELDS} options={options} />
        <OptionSection id="sensitive" fields={SENSITIVE_FIELDS} options={options} />
        <OptionSection id="log" fields={LOG_FIELDS} options={options}>
          <LogCleanup />
        </OptionSection>
        <OptionSection id="dashboard" fields={DASHBOARD_FIELDS} options={options} />
        <OptionSection id="monitoring" fields={MONITORING_FIELDS} options={options} />
        <OptionSection id="routing" fields={ROUTING_FIELDS} options={options} />
        <OptionSection id="quota" fields={QUOTA_FIELDS} options={options} />
        <RatioSettings options={options} />
      </Stack>
    </OptionsGate>
  );
}
