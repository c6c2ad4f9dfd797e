/**
 * /api/token: a user's own API keys. Every query is scoped to the signed-in user, so another
 * user's id answers "令牌不存在" exactly like a missing one. The `new` paths of the console share
 * the handlers of the classic ones.
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { nowSeconds } from '../db/index.js';
import type { Token, User } from '../db/types.js';
import { ok, pageParams } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { searchLimit } from '../ratelimit/hooks.js';
import { usableGroups } from '../users/groups.js';
import { publishTokenChange } from './cache.js';
import { generateKey, storedKey } from './keys.js';
import {
  countOwnTokens,
  deleteOwnToken,
  deleteOwnTokens,
  findOwnToken,
  findOwnTokens,
  insertToken,
  listOwnTokens,
  setOwnTokenStatus,
  toTokenView,
  tokenFields,
  updateOwnTokenFields,
  type TokenFields,
  type TokenFilter,
} from './repository.js';
import {
  CountAnswer,
  CreateTokenBody,
  EmptyAnswer,
  KeysByIdAnswer,
  RevealedKeyAnswer,
  RevealedKeysAnswer,
  RevealKeysBody,
  TokenAnswer,
  TokenIdParams,
  TokenIdsBody,
  TokenPageAnswer,
  TokenPageQuery,
  TokenSearchQuery,
  UpdateTokenBody,
  UpdateTokenQuery,
  type TokenPage,
} from './schemas.js';
import { checkStatusChange, validateTokenFields } from './validation.js';

/** Field defaults of a new token whose payload leaves them out. */
const NEW_TOKEN: TokenFields = {
  name: '',
  remain_quota: 0,
  expired_time: -1,
  unlimited_quota: false,
  model_limits_enabled: false,
  model_limits: '',
  allow_ips: '',
  group: '',
  tpm_limit: 0,
  max_concurrency: 0,
  rpm_limit: 0,
  rpd_limit: 0,
  log_bodies: false,
};

function pick(body: Partial<TokenFields>, base: TokenFields): TokenFields {
  return {
    name: body.name ?? base.name,
    remain_quota: body.remain_quota ?? base.remain_quota,
    expired_time: body.expired_time ?? base.expired_time,
    unlimited_quota: body.unlimited_quota ?? base.unlimited_quota,
    model_limits_enabled: body.model_limits_enabled ?? base.model_limits_enabled,
    model_limits: body.model_limits ?? base.model_limits,
    allow_ips: body.allow_ips ?? base.allow_ips,
    group: body.group ?? base.group,
    tpm_limit: body.tpm_limit ?? base.tpm_limit,
    max_concurrency: body.max_concurrency ?? base.max_concurrency,
    rpm_limit: body.rpm_limit ?? base.rpm_limit,
    rpd_limit: body.rpd_limit ?? base.rpd_limit,
    log_bodies: body.log_bodies ?? base.log_bodies,
  };
}

export default async function tokenRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db } = ctx;

  async function ownToken(user: User, id: number): Promise<Token> {
    const token = await findOwnToken(db, user.id, id);
    if (!token) throw fail('token.not_found');
    return token;
  }

  const groupsOf = (user: User): Set<string> => new Set(Object.keys(usableGroups(ctx.options, user.group)));

  async function listPage(user: User, filter: TokenFilter, query: TokenPageQuery): Promise<TokenPage> {
    const { page, pageSize, offset } = pageParams(query);
    const [total, rows] = await Promise.all([
      countOwnTokens(db, user.id, filter),
      listOwnTokens(db, user.id, filter, pageSize, offset),
    ]);
    return { items: rows.map(toTokenView), total, page, page_size: pageSize };
  }

  // GET /api/token/query is the console's "new" list; it answers the same page shape.
  for (const url of ['/api/token/', '/api/token', '/api/token/query']) {
    app.get(
      url,
      { onRequest: requireUser, schema: { querystring: TokenPageQuery, response: { 200: TokenPageAnswer } } },
      async (request) => ok(await listPage(currentUser(request), { keyword: '', key: '' }, request.query)),
    );
  }

  for (const url of ['/api/token/search', '/api/token/newSearch']) {
    app.get(
      url,
      { onRequest: [requireUser, searchLimit], schema: { querystring: TokenSearchQuery, response: { 200: TokenPageAnswer } } },
      async (request) => {
        const filter = { keyword: (request.query.keyword ?? '').trim(), key: storedKey(request.query.token ?? '') };
        return ok(await listPage(currentUser(request), filter, request.query));
      },
    );
  }

  for (const url of ['/api/token/:id', '/api/token/new/:id']) {
    app.get(url, { onRequest: requireUser, schema: { params: TokenIdParams, response: { 200: TokenAnswer } } }, async (request) =>
      ok(toTokenView(await ownToken(currentUser(request), request.params.id))),
    );
  }

  // The ways to read a whole key again after creation, all under the search rate limit. Keys are
  // answered as stored, without `sk-` (see schemas.ts).
  for (const url of ['/api/token/:id/key', '/api/token/new/:id/key']) {
    app.post(
      url,
      { onRequest: [requireUser, searchLimit], schema: { params: TokenIdParams, response: { 200: RevealedKeyAnswer } } },
      async (request) => {
        const token = await ownToken(currentUser(request), request.params.id);
        return ok({ key: token.key });
      },
    );
  }

  /** The caller's tokens with these ids, in the order asked; any id that is not theirs refuses the whole call. */
  async function ownTokens(user: User, ids: readonly number[]): Promise<Token[]> {
    const byId = new Map((await findOwnTokens(db, user.id, ids)).map((t) => [t.id, t]));
    return ids.map((id) => {
      const token = byId.get(id);
      if (!token) throw fail('token.not_found');
      return token;
    });
  }

  app.post(
    '/api/token/keys',
    { onRequest: [requireUser, searchLimit], schema: { body: RevealKeysBody, response: { 200: RevealedKeysAnswer } } },
    async (request) => ok((await ownTokens(currentUser(request), request.body.ids)).map((t) => ({ id: t.id, key: t.key }))),
  );

  // The family's batch reveal: the same keys as an object by id.
  app.post(
    '/api/token/batch/keys',
    { onRequest: [requireUser, searchLimit], schema: { body: TokenIdsBody, response: { 200: KeysByIdAnswer } } },
    async (request) => {
      const tokens = await ownTokens(currentUser(request), request.body.ids);
      return ok({ keys: Object.fromEntries(tokens.map((t) => [String(t.id), t.key])) });
    },
  );

  // Deletes the caller's tokens among the ids (others' are not touched) and answers how many.
  app.post(
    '/api/token/batch',
    { onRequest: requireUser, schema: { body: TokenIdsBody, response: { 200: CountAnswer } } },
    async (request) => {
      const keys = await deleteOwnTokens(db, currentUser(request).id, request.body.ids);
      for (const key of keys) publishTokenChange(ctx.bus, key);
      return ok(keys.length);
    },
  );

  for (const url of ['/api/token/', '/api/token']) {
    app.post(
      url,
      { onRequest: requireUser, schema: { body: CreateTokenBody, response: { 200: TokenAnswer } } },
      async (request) => {
        const user = currentUser(request);
        const fields = validateTokenFields(pick(request.body, NEW_TOKEN), {
          now: nowSeconds(),
          usableGroups: groupsOf(user),
        });
        const key = generateKey();
        const id = await insertToken(db, ctx.dbKind, user.id, key, fields);
        // Drops a cached "no such key" anywhere.
        publishTokenChange(ctx.bus, key);
        return ok(toTokenView(await ownToken(user, id)));
      },
    );
  }

  for (const url of ['/api/token/', '/api/token', '/api/token/new/', '/api/token/new']) {
    app.put(
      url,
      {
        onRequest: requireUser,
        schema: { querystring: UpdateTokenQuery, body: UpdateTokenBody, response: { 200: TokenAnswer } },
      },
      async (request) => {
        const user = currentUser(request);
        const body = request.body;
        const token = await ownToken(user, body.id);
        const now = nowSeconds();
        if (request.query.status_only) {
          await setOwnTokenStatus(db, user.id, token.id, checkStatusChange(token, body.status, now));
        } else {
          const previous = tokenFields(token);
          const fields = validateTokenFields(pick(body, previous), {
            now,
            usableGroups: groupsOf(user),
            previous,
          });
          await updateOwnTokenFields(db, user.id, token.id, fields);
        }
        publishTokenChange(ctx.bus, token.key);
        return ok(toTokenView(await ownToken(user, token.id)));
      },
    );
  }

  for (const url of ['/api/token/:id/', '/api/token/:id', '/api/token/new/:id/', '/api/token/new/:id']) {
    app.delete(
      url,
      { onRequest: requireUser, schema: { params: TokenIdParams, response: { 200: EmptyAnswer } } },
      async (request) => {
        const user = currentUser(request);
        const token = await ownToken(user, request.params.id);
        await deleteOwnToken(db, user.id, token.id);
        publishTokenChange(ctx.bus, token.key);
        return ok();
      },
    );
  }
}
