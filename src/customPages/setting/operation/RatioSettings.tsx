/**
 * The ratio settings card of the operation tab, with its sub-tabs: the price and group maps as JSON
 * (`model`, with the reset of model ratios), the visual pricing editor (`visual`) and the enabled
 * models that have no price yet (`unset_models`).
 */
import { lazy, Suspense, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import CircularProgress from '@mui/material/CircularProgress';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useGateway } from '../../../api/customMethods';
import type { OptionsState } from '../useOptions';
import { OptionSection } from './OptionSection';
import { RATIO_FIELDS } from './sections';

export const RATIO_TABS = ['model', 'visual', 'unset_models'] as const;
export type RatioTab = (typeof RATIO_TABS)[number];

const PricingEditor = lazy(() => import('../pricing/PricingEditor'));
const UnsetModels = lazy(() => import('../pricing/UnsetModels'));

function ResetRatios({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const notify = useNotify();
  const [open, setOpen] = useState(false);
  const gateway = useGateway();
  const resetting = useMutation({
    mutationFn: () => gateway.resetModelRatios(),
    onSuccess: async () => {
      notify('settings_operation.ratio.reset_done', { type: 'success' });
      await options.reload();
    },
    onError: (err: Error) => notify(translate(err.message, { _: err.message }), { type: 'error' }),
  });
  const reset = () => {
    setOpen(false);
    resetting.mutate();
  };
  return (
    <>
      <Button color="error" variant="outlined" onClick={() => setOpen(true)}>
        {translate('settings_operation.ratio.reset')}
      </Button>
      <Confirm
        isOpen={open}
        title="settings_operation.ratio.reset"
        content="settings_operation.ratio.reset_confirm"
        onConfirm={reset}
        onClose={() => setOpen(false)}
      />
    </>
  );
}

export function RatioSettings({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const [tab, setTab] = useState<RatioTab>('model');
  const title = translate('settings_operation.sections.ratio_settings');
  return (
    <Card variant="outlined" component="section" aria-label={title}>
      <CardContent>
        <Typography variant="h6">{title}</Typography>
        <Tabs
          value={tab}
          onChange={(_e, next: RatioTab) => setTab(next)}
          variant="scrollable"
          allowScrollButtonsMobile
          sx={{ mb: 2, borderBottom: 1, borderColor: 'divider' }}
        >
          {RATIO_TABS.map((key) => (
            <Tab key={key} value={key} label={translate(`settings_operation.sub_tabs.${key}`)} />
          ))}
        </Tabs>
        <Suspense fallback={<CircularProgress size={24} />}>
          {tab === 'model' && (
            <OptionSection id="ratio" fields={RATIO_FIELDS} options={options} actions={<ResetRatios options={options} />} />
          )}
          {tab === 'visual' && <PricingEditor options={options} />}
          {tab === 'unset_models' && <UnsetModels options={options} />}
        </Suspense>
      </CardContent>
    </Card>
  );
}
