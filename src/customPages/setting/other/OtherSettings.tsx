/**
 * The other settings tab (root): the notice (markdown), personalization (system name, logo, home
 * page, about, footer, docs link) and system information (the running version and start time from
 * /api/status). The spec names no release lookup, so no update check is made.
 */
import { useTranslate } from 'react-admin';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { formatTimestamp } from '../../../resources/schema/format';
import { useStatus } from '../../../status/status';
import { useOptions, type OptionsState, type OptionValues } from '../useOptions';
import { LoadedOptions, OptionField, SettingSection, useSection } from '../system/SettingSection';
import { isHttpUrl } from '../system/systemForm';

function NoticeSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, ['Notice']);
  return (
    <SettingSection title={translate('settings_system.notice.title')} busy={section.busy} onSave={() => void section.submit()}>
      <OptionField
        section={section}
        name="Notice"
        label="settings_system.notice.content"
        hint={translate('settings_system.notice.hint')}
        multiline
      />
    </SettingSection>
  );
}

const PERSONALIZATION_KEYS = ['SystemName', 'Logo', 'general_setting.docs_link', 'HomePageContent', 'About', 'Footer'] as const;

/** The docs link becomes a header link: only http(s) addresses. */
function preparePersonalization(form: OptionValues): OptionValues | string {
  const docs = (form['general_setting.docs_link'] ?? '').trim();
  if (docs !== '' && !isHttpUrl(docs)) return 'settings_system.personalization.docs_link_invalid';
  return {
    ...form,
    SystemName: (form.SystemName ?? '').trim(),
    Logo: (form.Logo ?? '').trim(),
    'general_setting.docs_link': docs,
  };
}

function PersonalizationSection({ options }: { options: OptionsState }) {
  const translate = useTranslate();
  const section = useSection(options, PERSONALIZATION_KEYS);
  const hint = (key: string) => translate(`settings_system.personalization.${key}`);
  return (
    <SettingSection
      title={translate('settings_system.personalization.title')}
      busy={section.busy}
      onSave={() => void section.submit(preparePersonalization)}
    >
      <OptionField section={section} name="SystemName" label="settings_system.personalization.system_name" />
      <OptionField section={section} name="Logo" label="settings_system.personalization.logo" placeholder="/logo.png" />
      <OptionField
        section={section}
        name="general_setting.docs_link"
        label="settings_system.personalization.docs_link"
        hint={hint('docs_link_hint')}
        placeholder="https://docs.example.com"
        wide
      />
      <OptionField
        section={section}
        name="HomePageContent"
        label="settings_system.personalization.home"
        hint={hint('home_hint')}
        multiline
      />
      <OptionField
        section={section}
        name="About"
        label="settings_system.personalization.about"
        hint={hint('about_hint')}
        multiline
      />
      <OptionField
        section={section}
        name="Footer"
        label="settings_system.personalization.footer"
        hint={hint('footer_hint')}
        multiline
      />
    </SettingSection>
  );
}

function SystemInfo() {
  const translate = useTranslate();
  const { status } = useStatus();
  const unknown = translate('settings_system.version.unknown');
  return (
    <Card variant="outlined" component="section" aria-label={translate('settings_system.version.title')} sx={{ mb: 2 }}>
      <CardContent>
        <Typography variant="h6" component="h2" sx={{ mb: 1 }}>
          {translate('settings_system.version.title')}
        </Typography>
        <Typography>
          {translate('settings_system.version.version')}: <span aria-label="version">{status?.version || unknown}</span>
        </Typography>
        <Typography>
          {translate('settings_system.version.start_time')}:{' '}
          <span aria-label="start_time">{formatTimestamp(status?.start_time) || unknown}</span>
        </Typography>
      </CardContent>
    </Card>
  );
}

export default function OtherSettings() {
  const options = useOptions();
  return (
    <>
      <LoadedOptions options={options}>
        <NoticeSection options={options} />
        <PersonalizationSection options={options} />
      </LoadedOptions>
      <SystemInfo />
    </>
  );
}
