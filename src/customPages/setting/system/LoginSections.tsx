/**
 * System tab: the login and registration switches (turning password login off asks first; cancel
 * leaves it on), the e-mail domain whitelist edited as a list, and SMTP.
 */
import { useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Chip from '@mui/material/Chip';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import type { OptionKey, OptionsState } from '../useOptions';
import { OptionField, OptionSwitch, SettingSection, useSection } from './SettingSection';
import { checkSmtp, whitelistEntries, whitelistProblem } from './systemForm';

const LOGIN_SWITCHES: ReadonlyArray<[key: OptionKey, label: string]> = [
  ['PasswordLoginEnabled', 'password_login'],
  ['PasswordRegisterEnabled', 'password_register'],
  ['EmailVerificationEnabled', 'email_verification'],
  ['RegisterEnabled', 'register'],
  ['GitHubOAuthEnabled', 'github'],
  ['oidc.enabled', 'oidc'],
  ['LinuxDOOAuthEnabled', 'linuxdo'],
  ['WeChatAuthEnabled', 'wechat'],
  ['TelegramOAuthEnabled', 'telegram'],
  ['TurnstileCheckEnabled', 'turnstile'],
];

export function LoginSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(
    options,
    LOGIN_SWITCHES.map(([key]) => key),
  );
  const [confirming, setConfirming] = useState(false);
  return (
    <SettingSection
      title={translate('settings_system.login.title')}
      hint={translate('settings_system.login.hint')}
      busy={section.busy}
      onSave={() => void section.submit()}
    >
      {LOGIN_SWITCHES.map(([key, label]) => (
        <OptionSwitch
          key={key}
          section={section}
          name={key}
          label={`settings_system.login.${label}`}
          onToggle={
            key === 'PasswordLoginEnabled' ? (checked) => (checked ? section.set(key, 'true') : setConfirming(true)) : undefined
          }
        />
      ))}
      <Confirm
        isOpen={confirming}
        title="settings_system.login.confirm_title"
        content="settings_system.login.confirm_content"
        onConfirm={() => {
          section.set('PasswordLoginEnabled', 'false');
          setConfirming(false);
        }}
        onClose={() => setConfirming(false)}
      />
    </SettingSection>
  );
}

export function EmailWhitelistSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const notify = useNotify();
  const section = useSection(options, ['EmailDomainRestrictionEnabled', 'EmailAliasRestrictionEnabled', 'EmailDomainWhitelist']);
  const [draft, setDraft] = useState('');
  const entries = whitelistEntries(section.form.EmailDomainWhitelist ?? '');
  const setEntries = (next: string[]) => section.set('EmailDomainWhitelist', next.join(','));

  const add = () => {
    const domain = draft.trim().toLowerCase();
    const problem = whitelistProblem(entries, domain);
    if (problem) {
      notify(problem, { type: 'warning' });
      return;
    }
    setEntries([...entries, domain]);
    setDraft('');
  };

  return (
    <SettingSection
      title={translate('settings_system.email.title')}
      hint={translate('settings_system.email.hint')}
      busy={section.busy}
      onSave={() => void section.submit()}
    >
      <OptionSwitch section={section} name="EmailDomainRestrictionEnabled" label="settings_system.email.restriction" />
      <OptionSwitch section={section} name="EmailAliasRestrictionEnabled" label="settings_system.email.alias" />
      <Box sx={{ gridColumn: '1 / -1' }}>
        <Typography variant="subtitle2" component="h3" sx={{ mb: 1 }}>
          {translate('settings_system.email.list')}
        </Typography>
        <Box
          component="ul"
          aria-label={translate('settings_system.email.list')}
          sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, p: 0, m: 0, listStyle: 'none' }}
        >
          {entries.map((domain) => (
            <li key={domain}>
              <Chip label={domain} onDelete={() => setEntries(entries.filter((d) => d !== domain))} />
            </li>
          ))}
        </Box>
        {entries.length === 0 && (
          <Typography variant="body2" color="text.secondary">
            {translate('settings_system.email.empty')}
          </Typography>
        )}
        <Box sx={{ display: 'flex', gap: 1, mt: 2, alignItems: 'center' }}>
          <TextField
            size="small"
            label={translate('settings_system.email.new_domain')}
            placeholder="example.com"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                add();
              }
            }}
          />
          <Button variant="outlined" onClick={add}>
            {translate('settings_system.email.add')}
          </Button>
        </Box>
      </Box>
    </SettingSection>
  );
}

export function SmtpSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, ['SMTPServer', 'SMTPPort', 'SMTPAccount', 'SMTPFrom', 'SMTPToken', 'SMTPSSLEnabled']);
  return (
    <SettingSection
      title={translate('settings_system.smtp.title')}
      hint={translate('settings_system.smtp.hint')}
      busy={section.busy}
      onSave={() => void section.submit((form) => checkSmtp(form) ?? { ...form, SMTPServer: (form.SMTPServer ?? '').trim() })}
    >
      <OptionField section={section} name="SMTPServer" label="settings_system.smtp.server" placeholder="smtp.example.com" />
      <OptionField section={section} name="SMTPPort" label="settings_system.smtp.port" type="number" placeholder="587" />
      <OptionField section={section} name="SMTPAccount" label="settings_system.smtp.account" />
      <OptionField section={section} name="SMTPFrom" label="settings_system.smtp.from" />
      <OptionField section={section} name="SMTPToken" label="settings_system.smtp.token" />
      <OptionSwitch section={section} name="SMTPSSLEnabled" label="settings_system.smtp.ssl" />
    </SettingSection>
  );
}
