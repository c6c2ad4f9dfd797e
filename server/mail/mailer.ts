import nodemailer from 'nodemailer';
import type { OptionStore } from '../options/store.js';
import { fail } from '../http/errors.js';

/** Sends mail through the SMTP server configured in the options (read at send time). */
export class Mailer {
  constructor(private readonly options: OptionStore) {}

  get configured(): boolean {
    return this.options.string('SMTPServer') !== '' && this.options.string('SMTPAccount') !== '';
  }

  async send(to: string, subject: string, html: string): Promise<void> {
    if (!this.configured) throw fail('account.smtp_not_configured');
    const port = this.options.number('SMTPPort') || 587;
    const transport = nodemailer.createTransport({
      host: this.options.string('SMTPServer'),
      port,
      secure: this.options.bool('SMTPSSLEnabled') || port === 465,
      // Local relays often take mail without a password.
      auth: this.options.string('SMTPToken')
        ? { user: this.options.string('SMTPAccount'), pass: this.options.string('SMTPToken') }
        : undefined,
      // Local and self-signed relays are common for self-hosted gateways.
      tls: { rejectUnauthorized: false },
    });
    const from = this.options.string('SMTPFrom') || this.options.string('SMTPAccount');
    try {
      await transport.sendMail({ from: `${this.options.string('SystemName')} <${from}>`, to, subject, html });
    } catch (err) {
      throw fail('account.mail_failed', { detail: (err as Error).message });
    } finally {
      transport.close();
    }
  }
}
