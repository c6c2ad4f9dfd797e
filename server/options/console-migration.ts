/**
 * POST /api/option/migrate_console_setting: the family's console moves the dashboard settings of
 * its older releases (ApiInfo, Announcements, FAQ, UptimeKumaUrl + UptimeKumaSlug, stored as plain
 * option rows by a database brought over from one) to their console_setting.* keys, then deletes
 * the old rows. A value that does not pass the new key's check is left where it is, and named.
 */
import type { FastifyInstance } from 'fastify';
import { requireRoot } from '../auth/guard.js';
import type { OptionStore } from './store.js';
import { validateOptionValue, type OptionKey } from './registry.js';

const parse = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The FAQ of older releases used title/content; the dashboard reads question/answer. */
function faqItems(text: string): string | undefined {
  const list = parse(text);
  if (!Array.isArray(list)) return undefined;
  const items = list
    .filter((item): item is Record<string, unknown> => typeof item === 'object' && item !== null)
    .map((item) => ({ question: item.question ?? item.title ?? '', answer: item.answer ?? item.content ?? '' }));
  return JSON.stringify(items.slice(0, 50));
}

/** The moves to make: new key → value, and the old rows they empty. */
function plan(options: OptionStore): { moves: [OptionKey, string][]; old: string[] } {
  const old = (key: string) => options.internal(key) ?? '';
  const moves: [OptionKey, string][] = [];
  const apiInfo = parse(old('ApiInfo'));
  if (Array.isArray(apiInfo)) moves.push(['console_setting.api_info', JSON.stringify(apiInfo.slice(0, 50))]);
  if (old('Announcements')) moves.push(['console_setting.announcements', old('Announcements')]);
  const faq = old('FAQ') ? faqItems(old('FAQ')) : undefined;
  if (faq) moves.push(['console_setting.faq', faq]);
  if (old('UptimeKumaUrl') && old('UptimeKumaSlug')) {
    const group = { id: 1, categoryName: 'old', url: old('UptimeKumaUrl'), slug: old('UptimeKumaSlug'), description: '' };
    moves.push(['console_setting.uptime_kuma_groups', JSON.stringify([group])]);
  }
  return { moves, old: ['ApiInfo', 'Announcements', 'FAQ', 'UptimeKumaUrl', 'UptimeKumaSlug'].filter((k) => old(k) !== '') };
}

export default async function consoleMigrationRoutes(app: FastifyInstance): Promise<void> {
  const options = app.ctx.options;
  const audit = { subject: 'option', action: 'migrate_console_setting', target: () => ['console_setting'] } as const;
  app.post('/api/option/migrate_console_setting', { onRequest: requireRoot, config: { audit } }, async () => {
    const { moves, old } = plan(options);
    const refused = moves.filter(([key, value]) => validateOptionValue(key, value) !== null).map(([key]) => key);
    for (const [key, value] of moves) if (!refused.includes(key)) await options.set(key, value);
    if (refused.length > 0) return { success: false, message: `无法迁移：${refused.join(', ')}`, data: { refused } };
    for (const key of old) await options.removeInternal(key);
    return { success: true, message: 'migrated', data: { migrated: moves.map(([key]) => key) } };
  });
}
