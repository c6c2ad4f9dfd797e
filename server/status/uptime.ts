/**
 * GET /api/uptime/status: the dashboard's service-status panel. For each group of
 * console_setting.uptime_kuma_groups ({categoryName, url, slug}) it reads the Uptime Kuma status
 * page and its heartbeats (through the SSRF-safe fetcher: a Kuma on the gateway's own network needs
 * its host in ALLOW_PRIVATE_HOSTS) and answers each monitor's name, group, 24-hour uptime and last
 * status. A page that cannot be read gives its group no monitors. Answers are kept 60 s, so
 * anonymous dashboard loads cannot make the gateway fetch at will.
 */
import type { FastifyInstance } from 'fastify';
import { ok } from '../http/envelope.js';
import { safeFetch } from '../http/safe-fetch.js';

interface Monitor {
  name: string;
  uptime: number;
  status: number;
  group: string;
}
interface GroupResult {
  categoryName: string;
  monitors: Monitor[];
}

const CACHE_MS = 60_000;
const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null ? (v as Record<string, unknown>) : {});
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

async function getJson(url: string): Promise<Record<string, unknown>> {
  const res = await safeFetch(url, { timeoutMs: 10_000, maxBytes: 2 * 1024 * 1024, headers: { Accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`status ${res.status}`);
  return obj(JSON.parse(res.text()));
}

async function readGroup(group: Record<string, unknown>): Promise<GroupResult> {
  const result: GroupResult = { categoryName: String(group.categoryName ?? ''), monitors: [] };
  const base = String(group.url ?? '').replace(/\/+$/, '');
  const slug = encodeURIComponent(String(group.slug ?? ''));
  if (!base || !slug) return result;
  try {
    const [page, beats] = await Promise.all([
      getJson(`${base}/api/status-page/${slug}`),
      getJson(`${base}/api/status-page/heartbeat/${slug}`),
    ]);
    const uptimes = obj(beats.uptimeList);
    const heartbeats = obj(beats.heartbeatList);
    for (const publicGroup of list(page.publicGroupList).map(obj)) {
      for (const m of list(publicGroup.monitorList).map(obj)) {
        const id = String(m.id);
        const uptime = uptimes[`${id}_24`];
        const last = obj(list(heartbeats[id]).at(-1));
        result.monitors.push({
          name: String(m.name ?? ''),
          group: String(publicGroup.name ?? ''),
          uptime: typeof uptime === 'number' ? uptime : 0,
          status: typeof last.status === 'number' ? last.status : 0,
        });
      }
    }
  } catch {
    result.monitors = [];
  }
  return result;
}

export default async function uptimeRoutes(app: FastifyInstance): Promise<void> {
  const options = app.ctx.options;
  let cached: { key: string; at: number; data: GroupResult[] } | undefined;

  app.get('/api/uptime/status', async () => {
    const raw = options.string('console_setting.uptime_kuma_groups');
    if (!options.bool('console_setting.uptime_kuma_enabled') || raw.trim() === '') return ok([]);
    if (cached && cached.key === raw && Date.now() - cached.at < CACHE_MS) return ok(cached.data);
    const groups = list(JSON.parse(raw)).map(obj);
    const data = await Promise.all(groups.map(readGroup));
    cached = { key: raw, at: Date.now(), data };
    return ok(data);
  });
}
