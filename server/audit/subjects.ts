/**
 * How the audit reads each subject's state before and after a change, through the subject's own
 * repository. A snapshot leaves out what moves by itself (usage counters, test times) so a diff
 * shows the admin's change only; secrets are wrapped to be masked (changes.ts), by name as well,
 * so a secret column added later is masked without anyone remembering to.
 */
import type { GatewayContext } from '../context.js';
import type { Channel, Redemption, User } from '../db/types.js';
import { findModel } from '../catalog/models-repository.js';
import { findVendor } from '../catalog/vendors-repository.js';
import { findChannelsByIds } from '../channels/list-repository.js';
import { OPTION_REGISTRY, isOptionKey, type OptionDef, type OptionKey } from '../options/registry.js';
import { findPrefillGroup } from '../prefill/repository.js';
import { findProvider } from '../oauth/custom/repository.js';
import { findRedemption } from '../redemptions/repository.js';
import { findPlan, findSubscription } from '../subscriptions/repository.js';
import { findUserById } from '../users/repository.js';
import { publicSettingString } from '../users/settings.js';
import { Secret, type Snapshot } from './changes.js';
import type { AuditId, AuditSubject } from './types.js';

export interface SubjectLoader {
  /** Each subject's state by id (as text); a missing one is absent (deleted, or never was). */
  load?: (ctx: GatewayContext, ids: readonly AuditId[]) => Promise<Map<string, Snapshot>>;
}

/** Field names that hold credentials, whatever the table. */
const SECRET_FIELD = /(^|_)(key|keys|password|passwd|access_token|api_key)$|secret/i;

function guarded(snapshot: Snapshot): Snapshot {
  const out: Snapshot = {};
  for (const [field, value] of Object.entries(snapshot)) {
    out[field] = SECRET_FIELD.test(field) && !(value instanceof Secret) ? new Secret(value, 'hidden') : value;
  }
  return out;
}

const numericIds = (ids: readonly AuditId[]): number[] =>
  [...new Set(ids.map(Number))].filter((id) => Number.isSafeInteger(id) && id > 0);

async function byId<T>(ids: readonly AuditId[], find: (id: number) => Promise<T | undefined>, snap: (row: T) => Snapshot) {
  const out = new Map<string, Snapshot>();
  for (const id of numericIds(ids)) {
    const row = await find(id);
    if (row) out.set(String(id), guarded(snap(row)));
  }
  return out;
}

function userSnapshot(user: User): Snapshot {
  const { used_quota: _used, request_count: _count, last_use_time: _last, password, access_token, setting, ...rest } = user;
  return {
    ...rest,
    setting: publicSettingString(setting) ?? '',
    password: new Secret(password, 'hidden'),
    access_token: new Secret(access_token, 'hidden'),
  };
}

function channelSnapshot(channel: Channel): Snapshot {
  const {
    used_quota: _used,
    balance: _balance,
    balance_updated_time: _balanceTime,
    test_time: _testTime,
    response_time: _responseTime,
    key,
    ...rest
  } = channel;
  return { ...rest, key: new Secret(key) };
}

function redemptionSnapshot(code: Redemption): Snapshot {
  return { ...code, key: new Secret(code.key) };
}

/** Secret by the registry, or by a name that says so (a new credential option not yet flagged). */
export function isSecretOption(key: OptionKey): boolean {
  const def: OptionDef = OPTION_REGISTRY[key];
  return def.secret === true || (def.type === 'string' && /secret|token|password/i.test(key));
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A JSON object option (prices, ratios, group maps) diffs entry by entry; any other by its value. */
function optionSnapshot(key: OptionKey, raw: string): Snapshot {
  if (isSecretOption(key)) return { value: new Secret(raw) };
  if (OPTION_REGISTRY[key].type === 'json') {
    try {
      const parsed: unknown = JSON.parse(raw);
      if (isPlainObject(parsed)) return parsed;
    } catch {
      // Stored text that is not JSON: shown as it is.
    }
  }
  return { value: raw };
}

export const SUBJECTS = {
  subscription_plan: {
    load: (ctx, ids) =>
      byId(
        ids,
        (id) => findPlan(ctx.db, id),
        (row) => ({ ...row }),
      ),
  },
  // What a subscription's period has left moves with every call: the admin's change is its status.
  user_subscription: {
    load: (ctx, ids) =>
      byId(
        ids,
        (id) => findSubscription(ctx.db, id),
        ({ quota_left: _left, used_total: _used, updated_at: _at, ...row }) => ({ ...row }),
      ),
  },
  user: { load: (ctx, ids) => byId(ids, (id) => findUserById(ctx.db, id), userSnapshot) },
  channel: {
    async load(ctx, ids) {
      const rows = await findChannelsByIds(ctx.db, numericIds(ids));
      return new Map(rows.map((row) => [String(row.id), guarded(channelSnapshot(row))]));
    },
  },
  option: {
    async load(ctx, keys) {
      const out = new Map<string, Snapshot>();
      for (const key of keys.map(String)) if (isOptionKey(key)) out.set(key, optionSnapshot(key, ctx.options.raw(key)));
      return out;
    },
  },
  redemption: { load: (ctx, ids) => byId(ids, (id) => findRedemption(ctx.db, id), redemptionSnapshot) },
  // Log rows are deleted by the million: the cleanup's details say which (a cut-off and a count).
  log: {},
  vendor: {
    load: (ctx, ids) =>
      byId(
        ids,
        (id) => findVendor(ctx.db, id),
        (row) => ({ ...row }),
      ),
  },
  model: {
    load: (ctx, ids) =>
      byId(
        ids,
        (id) => findModel(ctx.db, id),
        (row) => ({ ...row }),
      ),
  },
  prefill_group: {
    load: (ctx, ids) =>
      byId(
        ids,
        (id) => findPrefillGroup(ctx.db, id),
        (row) => ({ ...row }),
      ),
  },
  oauth_provider: {
    load: (ctx, ids) =>
      byId(
        ids,
        (id) => findProvider(ctx.db, id),
        ({ created_at: _created, updated_at: _updated, ...row }) => row,
      ),
  },
} satisfies Record<AuditSubject, SubjectLoader>;
