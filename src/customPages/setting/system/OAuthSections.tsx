/**
 * System tab: the third-party login providers (OIDC with discovery, GitHub, Linux DO, WeChat,
 * Telegram) and the Turnstile bot check. OIDC endpoints come from the provider's well-known
 * document, fetched by the gateway (POST /api/option/oidc_discovery) — on demand, and on save when
 * the well-known URL changed.
 */
import { useNotify, useTranslate } from 'react-admin';
import Button from '@mui/material/Button';
import { ApiError } from '../../../api/client';
import { useGateway } from '../../../api/customMethods';
import type { OptionKey, OptionsState, OptionValues } from '../useOptions';
import { OptionField, SettingSection, useSection } from './SettingSection';
import { isHttpUrl, stripSlashes } from './systemForm';

/** Where the gateway sends people back after a third-party login. */
function callbackOf(options: OptionsState, type: string): string {
  const address = stripSlashes(options.values.ServerAddress ?? '') || window.location.origin;
  return `${address}/oauth/${type}`;
}

const OIDC_KEYS = [
  'oidc.well_known',
  'oidc.client_id',
  'oidc.client_secret',
  'oidc.authorization_endpoint',
  'oidc.token_endpoint',
  'oidc.user_info_endpoint',
] as const;

export function OidcSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const notify = useNotify();
  const section = useSection(options, OIDC_KEYS);
  const gateway = useGateway();

  /** The endpoints of `url` as form values, or null (the reason already shown). */
  const discover = async (url: string): Promise<OptionValues | null> => {
    try {
      const found = await gateway.discoverOidc(url);
      return {
        'oidc.well_known': url,
        'oidc.authorization_endpoint': found.authorization_endpoint,
        'oidc.token_endpoint': found.token_endpoint,
        'oidc.user_info_endpoint': found.user_info_endpoint,
      };
    } catch (err) {
      // A refusal by the gateway carries its reason; anything else (the network) gets the console's own message.
      const message = err instanceof ApiError && err.status === 200 ? err.message : 'settings_system.oidc.fetch_failed';
      notify(translate(message, { _: message }), { type: 'error' });
      return null;
    }
  };

  const fetchNow = async () => {
    const url = (section.form['oidc.well_known'] ?? '').trim();
    if (!isHttpUrl(url)) {
      notify('settings_system.oidc.bad_url', { type: 'warning' });
      return;
    }
    const found = await discover(url);
    if (found) {
      section.setForm((f) => ({ ...f, ...found }));
      notify('settings_system.oidc.fetched', { type: 'success' });
    }
  };

  const prepare = async (form: OptionValues) => {
    const url = (form['oidc.well_known'] ?? '').trim();
    if (url === '') return form;
    if (!isHttpUrl(url)) return 'settings_system.oidc.bad_url';
    // A new well-known URL: its endpoints replace the ones in the form.
    if (url !== (options.values['oidc.well_known'] ?? '')) {
      const found = await discover(url);
      return found && { ...form, ...found };
    }
    return { ...form, 'oidc.well_known': url };
  };

  return (
    <SettingSection
      title={translate('settings_system.oidc.title')}
      hint={translate('settings_system.oidc.hint', { callback: callbackOf(options, 'oidc') })}
      busy={section.busy}
      onSave={() => void section.submit(prepare)}
      actions={
        <Button variant="outlined" onClick={() => void fetchNow()} disabled={section.busy}>
          {translate('settings_system.oidc.fetch')}
        </Button>
      }
    >
      <OptionField
        section={section}
        name="oidc.well_known"
        label="settings_system.oidc.well_known"
        hint={translate('settings_system.oidc.well_known_hint')}
        placeholder="https://id.example.com/.well-known/openid-configuration"
        wide
      />
      <OptionField section={section} name="oidc.client_id" label="settings_system.oidc.client_id" />
      <OptionField section={section} name="oidc.client_secret" label="settings_system.oidc.client_secret" />
      <OptionField
        section={section}
        name="oidc.authorization_endpoint"
        label="settings_system.oidc.authorization_endpoint"
        wide
      />
      <OptionField section={section} name="oidc.token_endpoint" label="settings_system.oidc.token_endpoint" />
      <OptionField section={section} name="oidc.user_info_endpoint" label="settings_system.oidc.user_info_endpoint" />
    </SettingSection>
  );
}

interface SimpleSectionProps {
  options: OptionsState;
  /** i18n group under settings_system. */
  group: string;
  /** Option key → label key inside the group. */
  fields: ReadonlyArray<[key: OptionKey, label: string]>;
  hintArgs?: Record<string, string>;
}

/** A section of plain text fields saved as they are. */
function SimpleSection({ options, group, fields, hintArgs }: SimpleSectionProps) {
  const translate = useTranslate();
  const section = useSection(
    options,
    fields.map(([key]) => key),
  );
  return (
    <SettingSection
      title={translate(`settings_system.${group}.title`)}
      hint={translate(`settings_system.${group}.hint`, hintArgs)}
      busy={section.busy}
      onSave={() => void section.submit((form) => Object.fromEntries(Object.entries(form).map(([k, v]) => [k, v.trim()])))}
    >
      {fields.map(([key, label]) => (
        <OptionField key={key} section={section} name={key} label={`settings_system.${group}.${label}`} />
      ))}
    </SettingSection>
  );
}

export function GitHubSection({ options }: { options: OptionsState }) {
  const home = stripSlashes(options.values.ServerAddress ?? '') || window.location.origin;
  return (
    <SimpleSection
      options={options}
      group="github"
      hintArgs={{ home, callback: callbackOf(options, 'github') }}
      fields={[
        ['GitHubClientId', 'client_id'],
        ['GitHubClientSecret', 'client_secret'],
      ]}
    />
  );
}

export function LinuxDoSection({ options }: { options: OptionsState }) {
  return (
    <SimpleSection
      options={options}
      group="linuxdo"
      hintArgs={{ callback: callbackOf(options, 'linuxdo') }}
      fields={[
        ['LinuxDOClientId', 'client_id'],
        ['LinuxDOClientSecret', 'client_secret'],
      ]}
    />
  );
}

export function WeChatSection({ options }: { options: OptionsState }) {
  return (
    <SimpleSection
      options={options}
      group="wechat"
      fields={[
        ['WeChatServerAddress', 'server_address'],
        ['WeChatServerToken', 'server_token'],
        ['WeChatAccountQRCodeImageURL', 'qrcode'],
      ]}
    />
  );
}

export function TelegramSection({ options }: { options: OptionsState }) {
  return (
    <SimpleSection
      options={options}
      group="telegram"
      fields={[
        ['TelegramBotName', 'bot_name'],
        ['TelegramBotToken', 'bot_token'],
      ]}
    />
  );
}

export function TurnstileSection({ options }: { options: OptionsState }) {
  return (
    <SimpleSection
      options={options}
      group="turnstile"
      fields={[
        ['TurnstileSiteKey', 'site_key'],
        ['TurnstileSecretKey', 'secret_key'],
      ]}
    />
  );
}
