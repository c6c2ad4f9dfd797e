/**
 * Headers every answer carries, console and API alike: no framing by another site (clickjacking),
 * no content-type sniffing, no full URLs (tokens in query strings) leaked as Referer to other sites,
 * and a Content-Security-Policy. They are set on the raw response at the start of each request (by
 * the request hook of server/ops/request-hooks.ts), so answers the relay writes itself (streams,
 * pass-through) carry them too.
 */
import type { ServerResponse } from 'node:http';

/** The console's and the API's paths (everything else is the console and its files). */
export function isApiPath(url: string): boolean {
  return /^\/(api|v1|v1beta|pg|mj|suno|dashboard)(\/|$|\?)/.test(url);
}

/**
 * What the built console needs, and nothing more: its own scripts (no inline script), styles that
 * MUI/emotion inject at run time, the Turnstile and Telegram login widgets (a script and an iframe
 * each), images from anywhere (the logo and the admin's sanitised home, about and notice texts
 * may point at any host), and iframes on any https address (the admin's home or about page, and
 * the chat link, may be one).
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self' https://challenges.cloudflare.com https://telegram.org",
  "style-src 'self' 'unsafe-inline'",
  'img-src * data: blob:',
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self' https:",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** API answers are data, never a document to render. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'";

/** Sets the headers on the raw response of a request routed by `path`. */
export function setSecurityHeaders(raw: ServerResponse, path: string): void {
  raw.setHeader('X-Frame-Options', 'DENY');
  raw.setHeader('X-Content-Type-Options', 'nosniff');
  raw.setHeader('Referrer-Policy', 'strict-origin-when-cross-origin');
  raw.setHeader('Content-Security-Policy', isApiPath(path) ? API_CSP : CONSOLE_CSP);
}
