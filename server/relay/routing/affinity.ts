/**
 * Channel affinity: a session (a conversation keyed by `prompt_cache_key`, Claude Code's session,
 * a header… per the rules of affinity-rules.ts) keeps to the channel and key that served it, so
 * the upstream's prompt cache stays warm. Every hit re-checks the pin: its channel must still be
 * enabled, serve the model in the caller's group, and not be cooling down, and its key must still
 * be enabled and usable; else the call is routed as any other, and whatever serves it becomes the
 * new pin. A pinned channel that fails loses the pin. Pins live in Redis when configured.
 *
 * Cost on the hot path: nothing while affinity is off or no rule matches; else one lookup before
 * the call (renewing the pin), and a write (not awaited) only when the pin is new or moves.
 */
import { createHash } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { GatewayContext } from '../../context.js';
import type { Channel } from '../../db/types.js';
import type { Chooser } from '../../ratelimit/channel-slots.js';
import { chosenKeyOf, withPinnedKey } from '../../channels/keys/picker.js';
import { channelSubject } from '../../channels/health/tracker.js';
import type { RelayCaller, RelayInput } from '../types.js';
import { compileAffinityRules, type CompiledRule, type KeySource } from './affinity-rules.js';
import { MemoryAffinityStore, RedisAffinityStore, type AffinityStore, type Pin } from './affinity-store.js';

const stores = new WeakMap<GatewayContext, AffinityStore>();

export function affinityStore(ctx: GatewayContext): AffinityStore {
  let store = stores.get(ctx);
  if (!store) {
    store = ctx.redis
      ? new RedisAffinityStore(ctx.redis, `${ctx.config.redisPrefix}affinity:`, () =>
          ctx.metrics.storeErrors.inc({ store: 'redis' }),
        )
      : new MemoryAffinityStore(() => ctx.options.number('channel_affinity_setting.max_entries'));
    stores.set(ctx, store);
  }
  return store;
}

let memo: { source: unknown; rules: CompiledRule[] } | null = null;

export function affinityRules(ctx: GatewayContext): CompiledRule[] {
  const source = ctx.options.json<unknown>('channel_affinity_setting.rules');
  if (memo !== null && memo.source === source) return memo.rules;
  const rules = compileAffinityRules(source) ?? [];
  memo = { source, rules };
  return rules;
}

/** The value at a dotted path of a JSON value. */
function at(value: unknown, path: string): unknown {
  let v = value;
  for (const part of path.split('.')) {
    if (typeof v !== 'object' || v === null) return undefined;
    v = (v as Record<string, unknown>)[part];
  }
  return v;
}

function sourceValue(s: KeySource, request: FastifyRequest, caller: RelayCaller, body: unknown): string {
  let v: unknown;
  if (s.type === 'request_header') v = request.headers[(s.key ?? '').toLowerCase()];
  else if (s.type === 'gjson') {
    v = at(body, s.path ?? '');
    if (s.nested_path && typeof v === 'string') {
      try {
        v = at(JSON.parse(v), s.nested_path);
      } catch {
        v = undefined;
      }
    }
  } else {
    const fields: Record<string, unknown> = {
      user_id: caller.userId,
      token_id: caller.tokenId,
      username: caller.username,
      token_name: caller.tokenName,
    };
    v = fields[s.key ?? ''];
  }
  if (typeof v === 'number') return String(v);
  return typeof v === 'string' ? v.slice(0, 1000) : '';
}

/** One call's affinity: the pin it found, if any, and what it learns from the call. */
export class Affinity {
  private tried = false;
  private servedBy: Pin | null = null;

  constructor(
    private readonly ctx: GatewayContext,
    private readonly caller: RelayCaller,
    private readonly rule: string,
    private readonly key: string,
    private readonly ttl: number,
    private pin: Pin | null,
  ) {}

  /** The pinned channel when it may still serve `model` for this caller. */
  private pinned(model: string): Channel | undefined {
    const pin = this.pin;
    if (!pin) return undefined;
    const listed = this.ctx.channels
      .candidates(this.caller.group, model)
      .some((tier) => tier.candidates.some((c) => c.channel.id === pin.channelId));
    if (!listed || !this.ctx.health.usable(channelSubject(pin.channelId))) return undefined;
    return this.ctx.channels.get(pin.channelId);
  }

  /** The proposals of an attempt: the pinned channel first (first attempt only), else `base`'s. */
  propose(base: Chooser, model: string, attempt: number, tried: readonly number[]): Chooser {
    if (this.pin && this.tried && tried.includes(this.pin.channelId)) this.forget();
    if (attempt > 0 || !this.pin || this.caller.pinnedChannelId) return base;
    return (full) => {
      const channel = this.pin && !full.has(this.pin.channelId) ? this.pinned(model) : undefined;
      if (!channel) return base(full);
      this.tried = true;
      return channel;
    };
  }

  /** The pinned key, when `channel` is the pinned channel and its key is still usable. */
  keyFor(channel: Channel): Channel | undefined {
    if (!this.pin || channel.id !== this.pin.channelId || this.pin.keyHash === '') return undefined;
    return withPinnedKey(this.ctx, channel, this.pin.keyHash);
  }

  /** The channel (with its key) that served the call: the session's pin from now on. */
  served(channel: Channel): void {
    this.servedBy = { channelId: channel.id, keyHash: chosenKeyOf(channel)?.hash ?? '' };
  }

  /** After the call: keeps or moves the pin, or drops one whose channel failed. */
  end(): void {
    const store = affinityStore(this.ctx);
    if (this.servedBy) {
      // The lookup already renewed a pin that still holds: only a new or moved pin is written.
      const same = this.pin?.channelId === this.servedBy.channelId && this.pin.keyHash === this.servedBy.keyHash;
      if (same) return;
      if (!this.pin || this.ctx.options.bool('channel_affinity_setting.switch_on_success')) {
        store.set(this.rule, this.key, this.servedBy, this.ttl);
      }
    } else if (this.tried) this.forget();
  }

  private forget(): void {
    if (!this.pin) return;
    affinityStore(this.ctx).delete(this.rule, this.key);
    this.pin = null;
  }
}

/**
 * The call's affinity: null at once when affinity is off or no rule keys this call (nothing to wait
 * for), else the pin read from the store.
 */
export function findAffinity(
  ctx: GatewayContext,
  request: FastifyRequest,
  caller: RelayCaller,
  input: RelayInput,
): Promise<Affinity | null> | null {
  if (!ctx.options.bool('channel_affinity_setting.enabled')) return null;
  const path = request.url.split('?', 1)[0] ?? '';
  const agent = String(request.headers['user-agent'] ?? '');
  for (const { rule, models, paths, value } of affinityRules(ctx)) {
    if (!models.some((m) => m.test(input.model)) || !paths.some((p) => p.test(path))) continue;
    if (rule.groups?.length && !rule.groups.includes(caller.group)) continue;
    if (rule.user_agent_include?.length && !rule.user_agent_include.some((w) => agent.includes(w))) continue;
    let found = '';
    for (const s of rule.key_sources) {
      const v = sourceValue(s, request, caller, input.body);
      if (v !== '' && (!value || value.test(v))) {
        found = v;
        break;
      }
    }
    if (found === '') continue;
    const parts = [
      rule.include_using_group === false ? '' : caller.group,
      rule.include_model_name ? input.model : '',
      createHash('sha256').update(found).digest('base64url').slice(0, 32),
    ];
    const key = parts.join('|');
    const name = rule.include_rule_name === false ? '' : rule.name;
    const ttl = rule.ttl_seconds || ctx.options.number('channel_affinity_setting.default_ttl_seconds') || 3600;
    return affinityStore(ctx)
      .get(name, key, ttl)
      .then((pin) => new Affinity(ctx, caller, name, key, ttl, pin));
  }
  return null;
}
