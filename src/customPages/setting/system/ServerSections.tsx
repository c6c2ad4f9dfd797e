/** System tab: the server address, the proxy worker and online payment (Epay) sections. */
import { useTranslate } from 'react-admin';
import type { OptionsState } from '../useOptions';
import { OptionField, OptionSwitch, SettingSection, useSection } from './SettingSection';
import { checkPayment, withoutSlashes } from './systemForm';

export function GeneralSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, ['ServerAddress']);
  return (
    <SettingSection
      title={translate('settings_system.general.title')}
      busy={section.busy}
      onSave={() => void section.submit((form) => withoutSlashes(form, ['ServerAddress']))}
    >
      <OptionField
        section={section}
        name="ServerAddress"
        label="settings_system.general.server_address"
        hint={translate('settings_system.general.server_address_hint')}
        placeholder="https://gateway.example.com"
        wide
      />
    </SettingSection>
  );
}

export function WorkerSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, ['WorkerUrl', 'WorkerValidKey', 'WorkerAllowHttpImageRequestEnabled']);
  return (
    <SettingSection
      title={translate('settings_system.worker.title')}
      hint={translate('settings_system.worker.hint')}
      busy={section.busy}
      onSave={() => void section.submit((form) => withoutSlashes(form, ['WorkerUrl']))}
    >
      <OptionField
        section={section}
        name="WorkerUrl"
        label="settings_system.worker.url"
        placeholder="https://workername.example.workers.dev"
      />
      <OptionField section={section} name="WorkerValidKey" label="settings_system.worker.key" />
      <OptionSwitch section={section} name="WorkerAllowHttpImageRequestEnabled" label="settings_system.worker.allow_http" />
    </SettingSection>
  );
}

const PAYMENT_KEYS = [
  'PayAddress',
  'EpayId',
  'EpayKey',
  'Price',
  'MinTopUp',
  'CustomCallbackAddress',
  'TopupGroupRatio',
] as const;

export function PaymentSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, PAYMENT_KEYS);
  const prepare = (form: Record<string, string>) => {
    const problem = checkPayment(form, options.values.ServerAddress ?? '');
    return problem ?? withoutSlashes(form, ['PayAddress', 'CustomCallbackAddress']);
  };
  return (
    <SettingSection
      title={translate('settings_system.payment.title')}
      hint={translate('settings_system.payment.hint')}
      busy={section.busy}
      onSave={() => void section.submit(prepare)}
    >
      <OptionField
        section={section}
        name="PayAddress"
        label="settings_system.payment.pay_address"
        placeholder="https://pay.example.com"
      />
      <OptionField section={section} name="EpayId" label="settings_system.payment.epay_id" />
      <OptionField section={section} name="EpayKey" label="settings_system.payment.epay_key" />
      <OptionField
        section={section}
        name="CustomCallbackAddress"
        label="settings_system.payment.callback"
        hint={translate('settings_system.payment.callback_hint')}
      />
      <OptionField section={section} name="Price" label="settings_system.payment.price" type="number" />
      <OptionField section={section} name="MinTopUp" label="settings_system.payment.min_topup" type="number" />
      <OptionField
        section={section}
        name="TopupGroupRatio"
        label="settings_system.payment.group_ratio"
        hint={translate('settings_system.payment.group_ratio_hint')}
        multiline
      />
    </SettingSection>
  );
}
