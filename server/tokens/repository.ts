/** The tokens table. Every console read and write is scoped to the owner; deleted rows are kept but never seen. */
import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { insertWithId, likeExpr } from '../db/helpers.js';
import { nowSeconds } from '../db/index.js';
import type { Database, Token } from '../db/types.js';
import { maskKey } from './keys.js';
import type { TokenView } from './schemas.js';
import { TOKEN_ENABLED, TOKEN_EXHAUSTED, TOKEN_EXPIRED } from './status.js';

/** The fields a user edits, validated and normalized (see validation.ts). */
export interface TokenFields {
  name: string;
  remain_quota: number;
  expired_time: number;
  unlimited_quota: boolean;
  model_limits_enabled: boolean;
  model_limits: string;
  allow_ips: string;
  group: string;
  /** Tokens per minute; 0 = no limit. */
  tpm_limit: number;
  /** Calls in flight, requests per minute and per day; 0 = no limit. */
  max_concurrency: number;
  rpm_limit: number;
  rpd_limit: number;
  /** Keep the bodies of its calls. */
  log_bodies: boolean;
}

export function tokenFields(row: Token): TokenFields {
  return {
    name: row.name,
    remain_quota: row.remain_quota,
    expired_time: row.expired_time,
    unlimited_quota: row.unlimited_quota === 1,
    model_limits_enabled: row.model_limits_enabled === 1,
    model_limits: row.model_limits ?? '',
    allow_ips: row.allow_ips ?? '',
    group: row.group,
    tpm_limit: row.tpm_limit,
    max_concurrency: row.max_concurrency,
    rpm_limit: row.rpm_limit,
    rpd_limit: row.rpd_limit,
    log_bodies: row.log_bodies === 1,
  };
}

function columns(fields: TokenFields) {
  return {
    ...fields,
    unlimited_quota: fields.unlimited_quota ? 1 : 0,
    model_limits_enabled: fields.model_limits_enabled ? 1 : 0,
    log_bodies: fields.log_bodies ? 1 : 0,
  };
}

/** What the console sees of a token: the key masked. */
export function toTokenView(row: Token): TokenView {
  return {
    id: row.id,
    user_id: row.user_id,
    key: maskKey(row.key),
    status: row.status,
    created_time: row.created_time,
    accessed_time: row.accessed_time,
    used_quota: row.used_quota,
    ...tokenFields(row),
  };
}

export interface TokenFilter {
  /** Substring of the name; empty matches all. */
  keyword: string;
  /** A whole stored key; empty matches all. */
  key: string;
}

function ownedBy(userId: number, filter: TokenFilter = { keyword: '', key: '' }) {
  return (eb: ExpressionBuilder<Database, 'tokens'>): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [eb('user_id', '=', userId), eb('deleted_at', 'is', null)];
    if (filter.keyword) conditions.push(likeExpr('name', filter.keyword));
    if (filter.key) conditions.push(eb('key', '=', filter.key));
    return eb.and(conditions);
  };
}

export async function findOwnToken(db: Db, userId: number, id: number): Promise<Token | undefined> {
  return db.selectFrom('tokens').selectAll().where(ownedBy(userId)).where('id', '=', id).executeTakeFirst();
}

/** The id and owner of the token with this stored key (deleted ones too: their logs stay). */
export async function findTokenOwnerByKey(db: Db, key: string): Promise<{ id: number; user_id: number } | undefined> {
  return db.selectFrom('tokens').select(['id', 'user_id']).where('key', '=', key).executeTakeFirst();
}

/** What has been spent through the token, for the OpenAI-style usage answer. */
export async function findTokenUsedQuota(db: Db, id: number): Promise<number | undefined> {
  return (await db.selectFrom('tokens').select('used_quota').where('id', '=', id).executeTakeFirst())?.used_quota;
}

/** The token's name, for the log rows written about its calls. */
export async function findTokenName(db: Db, id: number): Promise<string | undefined> {
  return (await db.selectFrom('tokens').select('name').where('id', '=', id).executeTakeFirst())?.name;
}

export async function countOwnTokens(db: Db, userId: number, filter: TokenFilter): Promise<number> {
  const row = await db
    .selectFrom('tokens')
    .select((eb) => eb.fn.countAll().as('total'))
    .where(ownedBy(userId, filter))
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/** The user's tokens matching `filter`, newest first. */
export async function listOwnTokens(
  db: Db,
  userId: number,
  filter: TokenFilter,
  limit: number,
  offset: number,
): Promise<Token[]> {
  return db
    .selectFrom('tokens')
    .selectAll()
    .where(ownedBy(userId, filter))
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/**
 * The live token with exactly this stored key. The comparison is repeated here because MySQL's
 * default collation matches case-insensitively.
 */
export async function findLiveTokenByKey(db: Db, key: string): Promise<Token | undefined> {
  const row = await db.selectFrom('tokens').selectAll().where('key', '=', key).where('deleted_at', 'is', null).executeTakeFirst();
  return row && row.key === key ? row : undefined;
}

export async function insertToken(db: Db, kind: DbKind, userId: number, key: string, fields: TokenFields): Promise<number> {
  return insertWithId(db, kind, 'tokens', {
    user_id: userId,
    key,
    status: TOKEN_ENABLED,
    created_time: nowSeconds(),
    accessed_time: 0,
    used_quota: 0,
    ...columns(fields),
  });
}

export async function updateOwnTokenFields(db: Db, userId: number, id: number, fields: TokenFields): Promise<void> {
  await db.updateTable('tokens').set(columns(fields)).where(ownedBy(userId)).where('id', '=', id).execute();
}

export async function setOwnTokenStatus(db: Db, userId: number, id: number, status: number): Promise<void> {
  await db.updateTable('tokens').set({ status }).where(ownedBy(userId)).where('id', '=', id).execute();
}

/**
 * The relay's finding that a token has expired or run out: only an enabled token is marked, so a
 * change its owner made meanwhile stands.
 */
export async function markTokenStatus(db: Db, id: number, status: typeof TOKEN_EXPIRED | typeof TOKEN_EXHAUSTED): Promise<void> {
  await db.updateTable('tokens').set({ status }).where('id', '=', id).where('status', '=', TOKEN_ENABLED).execute();
}

/** Soft delete: the row stays for the logs that name it, but no read or key lookup finds it again. */
export async function deleteOwnToken(db: Db, userId: number, id: number): Promise<void> {
  await db.updateTable('tokens').set({ deleted_at: nowSeconds() }).where(ownedBy(userId)).where('id', '=', id).execute();
}

/** The user's live tokens among these ids (ids of others' or deleted tokens are left out). */
export async function findOwnTokens(db: Db, userId: number, ids: readonly number[]): Promise<Token[]> {
  if (ids.length === 0) return [];
  return db
    .selectFrom('tokens')
    .selectAll()
    .where(ownedBy(userId))
    .where('id', 'in', [...ids])
    .execute();
}

/** Soft-deletes the user's live tokens among these ids; answers the keys of those deleted. */
export async function deleteOwnTokens(db: Db, userId: number, ids: readonly number[]): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    const owned = await findOwnTokens(trx, userId, ids);
    if (owned.length === 0) return [];
    await trx
      .updateTable('tokens')
      .set({ deleted_at: nowSeconds() })
      .where(ownedBy(userId))
      .where(
        'id',
        'in',
        owned.map((t) => t.id),
      )
      .execute();
    return owned.map((t) => t.key);
  });
}
