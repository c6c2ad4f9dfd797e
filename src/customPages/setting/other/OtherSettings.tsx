/**
 * The other settings tab (root): the notice (markdown), personalization (system name, logo, home
 * page, about, footer, docs link) and system information with the update check (VersionSection).
 */
import { useTranslate } from 'react-admin';
import { useOptions, type OptionsState, type OptionValues } from '../useOptions';
import { LoadedOptions, OptionField, SettingSection, useSection } from '../system/SettingSection';
import { isHttpUrl } from '../system/systemForm';
import { VersionSection } from './VersionSection';

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

export default function OtherSettings() {
  const options = useOptions();
  return (
    <>
      <LoadedOptions options={options}>
        <NoticeSection options={options} />
        <PersonalizationSection options={options} />
        <VersionSection options={options} />
      </LoadedOptions>
    </>
  );
}
