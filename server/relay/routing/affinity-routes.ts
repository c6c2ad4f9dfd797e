/**
 * The family's admin routes of the affinity pins (root): GET /api/option/channel_affinity_cache
 * counts them by rule; DELETE …?all=true clears every pin, …?rule_name=<name> the pins of one rule.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { requireRoot } from '../../auth/guard.js';
import { ok } from '../../http/envelope.js';
import { fail } from '../../http/errors.js';
import { affinityRules, affinityStore } from './affinity.js';

const ClearQuery = Type.Object({
  all: Type.Optional(Type.String({ maxLength: 10 })),
  rule_name: Type.Optional(Type.String({ maxLength: 100 })),
});

export default async function affinityRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;

  app.get('/api/option/channel_affinity_cache', { onRequest: requireRoot }, async () => {
    const counts = await affinityStore(ctx).counts();
    const names = affinityRules(ctx)
      .map((r) => r.rule)
      .filter((r) => r.include_rule_name !== false)
      .map((r) => r.name);
    const byRule: Record<string, number> = Object.fromEntries(names.map((n) => [n, counts.get(n) ?? 0]));
    let total = 0;
    let unknown = 0;
    for (const [rule, n] of counts) {
      total += n;
      if (!Object.hasOwn(byRule, rule)) unknown += n;
    }
    return ok({
      enabled: ctx.options.bool('channel_affinity_setting.enabled'),
      total,
      unknown,
      by_rule_name: byRule,
      cache_capacity: ctx.redis ? null : ctx.options.number('channel_affinity_setting.max_entries'),
      cache_algo: ctx.redis ? 'redis' : 'lru',
    });
  });

  const audit = {
    subject: 'option',
    action: 'clear_affinity_cache',
    detail: (request: FastifyRequest): Record<string, string | boolean> => {
      const q = request.query as { all?: string; rule_name?: string };
      return q.all === 'true' ? { all: true } : { rule_name: q.rule_name ?? '' };
    },
  } as const;
  app.delete(
    '/api/option/channel_affinity_cache',
    { onRequest: requireRoot, schema: { querystring: ClearQuery }, config: { audit } },
    async (request) => {
      const { all, rule_name: rule } = request.query;
      if (all?.trim() === 'true') return ok({ deleted: await affinityStore(ctx).clear() });
      if (!rule?.trim()) throw fail('option.affinity_clear_target');
      return ok({ deleted: await affinityStore(ctx).clear(rule.trim()) });
    },
  );
}
