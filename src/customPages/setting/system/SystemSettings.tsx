/**
 * The system settings tab (root): server address, proxy worker, payment (Epay, Stripe, Creem,
 * preset amounts), login and registration
 * switches, e-mail whitelist, SMTP, OIDC, GitHub, Linux DO, WeChat, Telegram and Turnstile. Every
 * section edits its own option keys and has its own save button.
 */
import { useOptions } from '../useOptions';
import { EmailWhitelistSection, LoginSection, SmtpSection } from './LoginSections';
import { GitHubSection, LinuxDoSection, OidcSection, TelegramSection, TurnstileSection, WeChatSection } from './OAuthSections';
import { GeneralSection, PaymentSection, WorkerSection } from './ServerSections';
import { LoadedOptions } from './SettingSection';
import { AmountPresetsSection, CreemSection, StripeSection } from './CardPaymentSections';

export default function SystemSettings() {
  const options = useOptions();
  return (
    <LoadedOptions options={options}>
      <GeneralSection options={options} />
      <WorkerSection options={options} />
      <PaymentSection options={options} />
      <StripeSection options={options} />
      <CreemSection options={options} />
      <AmountPresetsSection options={options} />
      <LoginSection options={options} />
      <EmailWhitelistSection options={options} />
      <SmtpSection options={options} />
      <OidcSection options={options} />
      <GitHubSection options={options} />
      <LinuxDoSection options={options} />
      <WeChatSection options={options} />
      <TelegramSection options={options} />
      <TurnstileSection options={options} />
    </LoadedOptions>
  );
}
