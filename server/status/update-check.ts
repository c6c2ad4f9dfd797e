/**
 * The other-settings tab's update check: the release feed at the UpdateCheckUrl option (GitHub's
 * "latest release" JSON, or a list of releases, newest first) is fetched through the SSRF-safe
 * fetcher and compared with the running version. Nothing is answered that the feed did not say:
 * no feed configured, an unreachable feed and an unreadable one are refusals of their own.
 */
import { fail } from '../http/errors.js';
import { safeFetch } from '../http/safe-fetch.js';
import type { UpdateCheck } from './schemas.js';

const FEED_TIMEOUT_MS = 10_000;
const FEED_MAX_BYTES = 2 * 1024 * 1024;

interface Release {
  tag_name?: unknown;
  html_url?: unknown;
  published_at?: unknown;
  draft?: unknown;
  prerelease?: unknown;
}

/** The newest published release of a feed answer, or null when it holds none. */
export function latestRelease(feed: unknown): { version: string; url: string; publishedAt: string } | null {
  const list: unknown[] = Array.isArray(feed) ? feed : [feed];
  for (const item of list) {
    const r = item as Release | null;
    if (!r || typeof r !== 'object' || typeof r.tag_name !== 'string' || r.tag_name.trim() === '') continue;
    if (r.draft === true || r.prerelease === true) continue;
    return {
      version: r.tag_name.trim(),
      url: typeof r.html_url === 'string' ? r.html_url : '',
      publishedAt: typeof r.published_at === 'string' ? r.published_at : '',
    };
  }
  return null;
}

/** Dotted numbers of a version (`v1.2.10-beta` → [1, 2, 10]). */
function parts(version: string): number[] {
  const core = version.trim().replace(/^v/i, '').split(/[-+]/)[0] ?? '';
  return core.split('.').map((p) => Number.parseInt(p, 10) || 0);
}

/** Whether `candidate` is a later version than `current`, comparing the dotted numbers. */
export function isNewer(candidate: string, current: string): boolean {
  const a = parts(candidate);
  const b = parts(current);
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return diff > 0;
  }
  return false;
}

export async function checkForUpdate(feedUrl: string, currentVersion: string): Promise<UpdateCheck> {
  if (feedUrl.trim() === '') throw fail('update.not_configured');
  let status: number;
  let text: string;
  try {
    const res = await safeFetch(feedUrl.trim(), {
      headers: { accept: 'application/json', 'user-agent': 'ai-gateway-update-check' },
      timeoutMs: FEED_TIMEOUT_MS,
      maxBytes: FEED_MAX_BYTES,
    });
    status = res.status;
    text = res.text();
  } catch (err) {
    throw fail('update.unreachable', { detail: (err as Error).message });
  }
  if (status < 200 || status >= 300) throw fail('update.unreachable', { detail: `HTTP ${status}` });
  let feed: unknown;
  try {
    feed = JSON.parse(text);
  } catch {
    throw fail('update.bad_feed');
  }
  const latest = latestRelease(feed);
  if (!latest) throw fail('update.bad_feed');
  return {
    current_version: currentVersion,
    latest_version: latest.version,
    update_available: isNewer(latest.version, currentVersion),
    release_url: latest.url,
    published_at: latest.publishedAt,
  };
}
