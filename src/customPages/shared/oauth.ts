/** Authorisation addresses of the redirect-based providers; each returns to /oauth/{type}. */
import type { SiteStatus } from '../../status/status';
import { api } from '../../api/client';
import { serverAddress } from '../chat/chatLink';
import { AFF_KEY } from './constants';

export type RedirectProvider = 'github' | 'oidc' | 'linuxdo';

/**
 * The callback address. The server exchanges the code with `ServerAddress || its own address`
 * as redirect_uri, so the browser must be sent with the same: the configured server address
 * (status.server_address), else this page's origin.
 */
function callback(type: RedirectProvider, status: SiteStatus): string {
  return `${serverAddress(status)}/oauth/${type}`;
}

export function authorizeUrl(type: RedirectProvider, status: SiteStatus, state: string): string {
  const params = new URLSearchParams({ state, redirect_uri: callback(type, status) });
  switch (type) {
    case 'github':
      params.set('client_id', status.github_client_id);
      params.set('scope', 'user:email');
      return `https://github.com/login/oauth/authorize?${params}`;
    case 'oidc':
      params.set('client_id', status.oidc_client_id);
      params.set('response_type', 'code');
      params.set('scope', 'openid profile email');
      return `${status.oidc_authorization_endpoint}?${params}`;
    case 'linuxdo':
      params.set('client_id', status.linuxdo_client_id);
      params.set('response_type', 'code');
      return `https://connect.linux.do/oauth2/authorize?${params}`;
  }
}

/**
 * Asks the server for a state bound to this browser (and the invitation code), then leaves. The
 * same flow binds the account when the person is logged in: the callback answers message 'bind'.
 */
export async function startOAuth(type: RedirectProvider, status: SiteStatus): Promise<void> {
  const aff = localStorage.getItem(AFF_KEY) ?? '';
  const state = await api.get<string>(`/api/oauth/state?aff=${encodeURIComponent(aff)}`);
  window.location.assign(authorizeUrl(type, status, state));
}
