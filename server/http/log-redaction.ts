/**
 * No credential reaches the log. Request lines carry the URL with the values of secret-looking
 * query parameters replaced (`?key=` of Gemini clients, access tokens, OAuth codes, signatures);
 * headers that carry credentials are censored wherever a logged object holds them; error messages
 * and stacks get the same treatment as URLs, since they may quote one.
 */
import type { FastifyError, FastifyServerOptions } from 'fastify';

export const REDACTED = '[redacted]';

/** Query parameter names whose values are credentials. */
const SECRET_PARAM = /key|token|secret|passw|code|sign|hash|auth|session|cookie/i;

/** Headers whose values are credentials. */
const SECRET_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'x-goog-api-key',
  'mj-api-secret',
  'cookie',
  'set-cookie',
];

/** `name=value` pairs of a query string (or text quoting a URL) whose name looks secret. */
const SECRET_PAIR = /([?&;]([^=&#\s"'?]*)=)([^&#\s"']*)/g;

/** The text with the value of every secret-looking query parameter replaced. */
export function redactQuery(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(SECRET_PAIR, (all, head: string, name: string) => {
    let decoded = name;
    try {
      decoded = decodeURIComponent(name);
    } catch {
      // A malformed escape: judge the name as written.
    }
    return SECRET_PARAM.test(decoded) ? `${head}${REDACTED}` : all;
  });
}

const headerPaths = SECRET_HEADERS.flatMap((h) => [`headers["${h}"]`, `*.headers["${h}"]`, `*.*.headers["${h}"]`]);

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

/** An error as logged: its kind, code and status, and its text with secret query values replaced. */
interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

function serializeError(err: FastifyError): LoggedError {
  if (typeof err !== 'object' || err === null) return { type: typeof err, message: redactQuery(String(err)), stack: '' };
  const out: LoggedError = {
    type: err.name,
    message: redactQuery(String(err.message)),
    stack: redactQuery(String(err.stack ?? '')),
  };
  if (err.code !== undefined) out.code = err.code;
  if (err.statusCode !== undefined) out.statusCode = err.statusCode;
  if (err.cause instanceof Error) out.cause = redactQuery(err.cause.message);
  return out;
}

/** Fastify's logger: the level, the censored header paths and serializers that redact URLs. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: { paths: headerPaths, censor: REDACTED },
    serializers: {
      req: (req: LoggedRequest) => ({
        method: req.method,
        url: redactQuery(req.url),
        host: req.host,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
      err: serializeError,
    },
  };
}

/** JSON members whose values are credentials (names matched whole, so `max_tokens` stays). */
const SECRET_MEMBER =
  /("(?:api[_-]?key|x-api-key|[a-z_-]*secret[a-z_-]*|password|passwd|authorization|access[_-]?token|refresh[_-]?token|id[_-]?token|session[_-]?id|cookie|private[_-]?key)"\s*:\s*)"(?:[^"\\]|\\.)*"/gi;

/** Key shapes of the gateway and common providers (sk-…, Bearer …, Google's AIza…, AWS's AKIA…). */
const KEY_SHAPES = /\b(?:sk-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|AKIA[0-9A-Z]{16})|(\bBearer\s+)[A-Za-z0-9._~+/=-]{8,}/g;

/**
 * A request or answer body as it may be stored: credentials in its JSON members, key-shaped words
 * and secret-looking query values of quoted URLs replaced. The rest of the text is kept as sent.
 */
export function redactBody(text: string): string {
  return redactQuery(
    text
      .replace(SECRET_MEMBER, (_all, head: string) => `${head}"${REDACTED}"`)
      .replace(KEY_SHAPES, (_all, bearer: string | undefined) => `${bearer ?? ''}${REDACTED}`),
  );
}
