/**
 * A real SMTP server on a loopback port for tests: accepts any login, keeps every message and
 * decodes it enough to read the subject and the body (base64 / quoted-printable, multipart).
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope recipients (RCPT TO). */
  to: string[];
  from: string;
  subject: string;
  /** The decoded text of every text/* part, joined. */
  body: string;
  raw: string;
  /** The AUTH user the client logged in as, if any. */
  user: string | null;
}

export interface TestSmtp {
  host: string;
  port: number;
  messages: ReceivedMail[];
  /** The first message (received so far or later) sent to `to`, after index `after`. */
  waitFor(to: string, options?: { after?: number; timeoutMs?: number }): Promise<ReceivedMail>;
  close(): Promise<void>;
}

function splitHeaders(raw: string): { headers: Map<string, string>; body: string } {
  const end = raw.search(/\r?\n\r?\n/);
  const head = end < 0 ? raw : raw.slice(0, end);
  const body = end < 0 ? '' : raw.slice(end).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  // Continuation lines start with white space (RFC 5322 folding).
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeQuotedPrintable(text: string): Buffer {
  const joined = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < joined.length; i++) {
    const ch = joined[i]!;
    const hex = joined.slice(i + 1, i + 3);
    if (ch === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(ch, 'utf8'));
    }
  }
  return Buffer.from(bytes);
}

function decodeTransfer(body: string, encoding: string | undefined): string {
  switch ((encoding ?? '').toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return decodeQuotedPrintable(body).toString('utf8');
    default:
      return body;
  }
}

/** RFC 2047 encoded words, e.g. =?UTF-8?B?...?= in the subject. */
function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset: string, kind: string, text: string) =>
      kind.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64').toString('utf8')
        : decodeQuotedPrintable(text.replace(/_/g, ' ')).toString('utf8'),
    );
}

function textParts(raw: string): string[] {
  const { headers, body } = splitHeaders(raw);
  const type = headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    return body
      .split(`--${boundary}`)
      .slice(1)
      .filter((part) => !part.startsWith('--'))
      .flatMap((part) => textParts(part.replace(/^\r?\n/, '')));
  }
  if (!/^text\//i.test(type)) return [];
  return [decodeTransfer(body, headers.get('content-transfer-encoding'))];
}

export function parseMail(raw: string): Pick<ReceivedMail, 'subject' | 'body'> {
  const { headers } = splitHeaders(raw);
  return { subject: decodeWords(headers.get('subject') ?? ''), body: textParts(raw).join('\n') };
}

export async function startTestSmtp(): Promise<TestSmtp> {
  const messages: ReceivedMail[] = [];
  const waiters: Array<() => void> = [];
  const server = new SMTPServer({
    // Plain SMTP with AUTH: the gateway's mailer must not be offered STARTTLS.
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    authOptional: true,
    logger: false,
    onAuth(auth, _session, callback) {
      callback(null, { user: auth.username ?? 'anonymous' });
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        const from = session.envelope.mailFrom;
        messages.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          from: from ? from.address : '',
          user: typeof session.user === 'string' ? session.user : null,
          raw,
          ...parseMail(raw),
        });
        for (const wake of waiters.splice(0)) wake();
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address() as AddressInfo;

  async function waitFor(to: string, { after = 0, timeoutMs = 5000 } = {}): Promise<ReceivedMail> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = messages.slice(after).find((m) => m.to.includes(to));
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no mail to ${to} within ${timeoutMs} ms (${messages.length} received)`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  return {
    host: '127.0.0.1',
    port: address.port,
    messages,
    waitFor,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The six-character code in a verification mail. */
export function codeOf(mail: ReceivedMail): string {
  const code = /<strong>([A-Z0-9]{6})<\/strong>/.exec(mail.body)?.[1];
  if (!code) throw new Error(`no code in mail: ${mail.body}`);
  return code;
}
