/**
 * The console's HTTP client for the custom pages: sends the session cookie and the New-Api-User
 * header, unwraps the `{success, message, data}` envelope and turns failures into `ApiError`s
 * carrying the message a person should see. The dataProvider uses the same client.
 */
import type { Envelope } from '../../server/http/envelope';
import type { PublicUser } from '../../server/users/repository';
import { storedLocale } from '../i18n';
import { localizeRefusal } from '../i18n/serverErrors';

export type StoredUser = PublicUser;

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    /** The refusal's stable code (server/http/refusals.ts), when the server sent one. */
    readonly code?: string,
  ) {
    super(message);
  }
}

export const USER_KEY = 'user';

export function storedUser(): StoredUser | null {
  try {
    const raw = localStorage.getItem(USER_KEY);
    return raw ? (JSON.parse(raw) as StoredUser) : null;
  } catch {
    return null;
  }
}

export function storeUser(user: StoredUser | null): void {
  if (user) localStorage.setItem(USER_KEY, JSON.stringify(user));
  else localStorage.removeItem(USER_KEY);
}

/** Statuses every call may meet, answered by the console's own message keys (translated by the caller). */
export const HTTP_ERROR_MESSAGES: Record<number, string> = {
  429: 'app.error.too_many_requests',
  500: 'app.error.server_error',
  405: 'app.error.demo_site',
};

/** Called on a 401: the app sends the person to /login?expired=true. */
let onUnauthorized: () => void = () => {
  storeUser(null);
  if (!location.pathname.startsWith('/login')) location.assign('/login?expired=true');
};

export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export async function request<T>(method: string, path: string, body?: unknown): Promise<Envelope<T>> {
  const headers: Record<string, string> = { Accept: 'application/json' };
  const user = storedUser();
  if (user) headers['New-Api-User'] = String(user.id);
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new ApiError(`Error: ${(err as Error).message}`, 0);
  }
  if (res.status === 401) {
    onUnauthorized();
    throw new ApiError('app.error.unauthorized', 401);
  }
  const known = HTTP_ERROR_MESSAGES[res.status];
  if (known) throw new ApiError(known, res.status);
  let envelope: Envelope<T>;
  try {
    envelope = (await res.json()) as Envelope<T>;
  } catch {
    throw new ApiError(`Error: ${res.status} ${res.statusText}`, res.status);
  }
  if (!res.ok && envelope.success !== false) throw new ApiError(`Error: ${res.status}`, res.status);
  return envelope;
}

/** The error for a refused envelope: its text in the reader's language (translated by its code). */
export function refusalError(envelope: Pick<Envelope<unknown>, 'message' | 'code' | 'params'>): ApiError {
  return new ApiError(localizeRefusal(envelope, storedLocale()), 200, envelope.code);
}

/** Calls the API and returns `data`, throwing the refusal in the reader's language when `success` is false. */
export async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const envelope = await request<T>(method, path, body);
  if (!envelope.success) throw refusalError(envelope);
  return envelope.data as T;
}

export const api = {
  get: <T>(path: string) => call<T>('GET', path),
  post: <T>(path: string, body?: unknown) => call<T>('POST', path, body ?? {}),
  put: <T>(path: string, body?: unknown) => call<T>('PUT', path, body ?? {}),
  delete: <T>(path: string) => call<T>('DELETE', path),
};
