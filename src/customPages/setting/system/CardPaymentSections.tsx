/**
 * System tab: card payments beside Epay — Stripe (secret key, webhook secret, price per dollar,
 * least amount, currency, promotion codes), Creem (API key, webhook secret, test mode, products) and
 * the wallet's preset amounts and discounts by amount. Keys are masked and webhook secrets
 * write-only (never read back); each section shows the webhook address to give the provider.
 */
import { useTranslate } from 'react-admin';
import type { OptionsState } from '../useOptions';
import { OptionField, OptionSwitch, SettingSection, useSection } from './SettingSection';
import { checkAmountPresets, checkCreem, checkStripe } from './systemForm';

const STRIPE_KEYS = [
  'StripeApiSecret',
  'StripeWebhookSecret',
  'StripeUnitPrice',
  'StripeMinTopUp',
  'StripeCurrency',
  'StripePromotionCodesEnabled',
] as const;
const CREEM_KEYS = ['CreemApiKey', 'CreemWebhookSecret', 'CreemProducts', 'CreemTestMode'] as const;
const PRESET_KEYS = ['payment_setting.amount_options', 'payment_setting.amount_discount'] as const;

/** Where the provider is to send its events: the server address (or the callback one) + the path. */
function webhookAddress(options: OptionsState, path: string): string {
  const base = (options.values.CustomCallbackAddress || options.values.ServerAddress || '').replace(/\/+$/, '');
  return base ? base + path : '';
}

export function StripeSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, STRIPE_KEYS);
  const hook = webhookAddress(options, '/api/stripe/webhook');
  return (
    <SettingSection
      title={translate('settings_system.stripe.title')}
      hint={translate('settings_system.stripe.hint', { url: hook || translate('settings_system.card.no_address') })}
      busy={section.busy}
      onSave={() => void section.submit((form) => checkStripe(form, options.values.ServerAddress ?? ''))}
    >
      <OptionField
        section={section}
        name="StripeApiSecret"
        label="settings_system.stripe.api_secret"
        placeholder="sk_live_… / rk_live_…"
      />
      <OptionField
        section={section}
        name="StripeWebhookSecret"
        label="settings_system.stripe.webhook_secret"
        placeholder="whsec_…"
      />
      <OptionField section={section} name="StripeUnitPrice" label="settings_system.stripe.unit_price" type="number" />
      <OptionField section={section} name="StripeMinTopUp" label="settings_system.stripe.min_topup" type="number" />
      <OptionField section={section} name="StripeCurrency" label="settings_system.stripe.currency" placeholder="usd" />
      <OptionSwitch section={section} name="StripePromotionCodesEnabled" label="settings_system.stripe.promotion_codes" />
    </SettingSection>
  );
}

export function CreemSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, CREEM_KEYS);
  const hook = webhookAddress(options, '/api/creem/webhook');
  return (
    <SettingSection
      title={translate('settings_system.creem.title')}
      hint={translate('settings_system.creem.hint', { url: hook || translate('settings_system.card.no_address') })}
      busy={section.busy}
      onSave={() => void section.submit((form) => checkCreem(form, options.values.ServerAddress ?? ''))}
    >
      <OptionField section={section} name="CreemApiKey" label="settings_system.creem.api_key" />
      <OptionField section={section} name="CreemWebhookSecret" label="settings_system.creem.webhook_secret" />
      <OptionSwitch section={section} name="CreemTestMode" label="settings_system.creem.test_mode" />
      <OptionField
        section={section}
        name="CreemProducts"
        label="settings_system.creem.products"
        hint={translate('settings_system.creem.products_hint')}
        multiline
      />
    </SettingSection>
  );
}

export function AmountPresetsSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, PRESET_KEYS);
  return (
    <SettingSection
      title={translate('settings_system.card.presets_title')}
      busy={section.busy}
      onSave={() => void section.submit(checkAmountPresets)}
    >
      <OptionField
        section={section}
        name="payment_setting.amount_options"
        label="settings_system.card.amount_options"
        hint={translate('settings_system.card.amount_options_hint')}
        wide
      />
      <OptionField
        section={section}
        name="payment_setting.amount_discount"
        label="settings_system.card.amount_discount"
        hint={translate('settings_system.card.amount_discount_hint')}
        multiline
      />
    </SettingSection>
  );
}
