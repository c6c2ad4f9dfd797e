/**
 * Passkeys (new-api's API): registering one, signing in with one, verifying with one before a
 * sensitive action, listing and removing them. `passkey.enabled` turns the ceremonies off (a
 * person can still see and remove their passkeys). Adding a passkey to an account that already has
 * a second factor, and removing one, need a fresh verification (fresh-verification.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { startSession } from '../auth/session.js';
import { USER_ENABLED } from '../auth/roles.js';
import { isUniqueViolation } from '../db/errors.js';
import type { Passkey } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope } from '../http/schemas.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { findUserById, recordSignIn, toPublicUser } from '../users/repository.js';
import {
  markPasskeyReady,
  markVerified,
  requireFreshVerification,
  requireFreshVerificationIfEnrolled,
  requireSessionKey,
} from './fresh-verification.js';
import { logInOrAskSecondFactor } from './login-step.js';
import {
  deletePasskey,
  deleteUserPasskeys,
  findPasskeyByCredentialId,
  insertPasskey,
  listPasskeys,
  recordPasskeyUse,
} from './passkey-repository.js';
import { relyingParty } from './relying-party.js';
import { changeFactors, continueSession } from './session-renewal.js';
import {
  AssertionBody,
  CeremonyOptions,
  PasskeyIdParams,
  PasskeyStatus,
  RegistrationBody,
  VerifyResult,
  type PasskeyItem,
} from './schemas.js';
import {
  assertedUserId,
  assertionOptions,
  registrationOptions,
  takeAssertionChallenge,
  transportsOf,
  verifyAssertion,
  verifyRegistration,
} from './webauthn.js';

/** Enough for every device a person owns; bounds what one account can store. */
const MAX_PASSKEYS = 20;

function item(p: Passkey): PasskeyItem {
  return {
    id: p.id,
    name: p.name,
    created_at: p.created_at,
    last_used_at: p.last_used_at,
    backed_up: p.backed_up === 1,
    transports: transportsOf(p),
  };
}

export default async function passkeyRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, kv, options } = ctx;

  function assertEnabled(): void {
    if (!options.bool('passkey.enabled')) throw fail('passkey.disabled');
  }

  app.get(
    '/api/user/passkey',
    { onRequest: requireUser, schema: { response: { 200: Envelope(PasskeyStatus) } } },
    async (request) => {
      const list = await listPasskeys(db, currentUser(request).id);
      const status: PasskeyStatus = {
        enabled: list.length > 0,
        last_used_at: Math.max(0, ...list.map((p) => p.last_used_at)),
        passkeys: list.map(item),
      };
      return ok(status);
    },
  );

  app.post(
    '/api/user/passkey/register/begin',
    { onRequest: requireUser, schema: { response: { 200: Envelope(CeremonyOptions) } } },
    async (request) => {
      assertEnabled();
      const user = currentUser(request);
      await requireFreshVerificationIfEnrolled(ctx, request, user.id);
      const existing = await listPasskeys(db, user.id);
      if (existing.length >= MAX_PASSKEYS) throw fail('passkey.too_many', { max: MAX_PASSKEYS });
      const publicKey = await registrationOptions(kv, relyingParty(options, request), user, existing);
      return ok({ options: { publicKey } });
    },
  );

  app.post(
    '/api/user/passkey/register/finish',
    { onRequest: requireUser, schema: { body: RegistrationBody } },
    async (request) => {
      assertEnabled();
      const user = currentUser(request);
      const credential = await verifyRegistration(kv, relyingParty(options, request), user.id, request.body);
      const existing = await listPasskeys(db, user.id);
      if (existing.length >= MAX_PASSKEYS) throw fail('passkey.too_many', { max: MAX_PASSKEYS });
      try {
        await insertPasskey(db, {
          user_id: user.id,
          credential_id: credential.credentialId,
          public_key: credential.publicKey,
          sign_count: credential.counter,
          transports: credential.transports,
          backed_up: credential.backedUp ? 1 : 0,
          name: request.body.name?.trim() || `Passkey ${existing.length + 1}`,
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw fail('passkey.already_registered');
        throw err;
      }
      return ok(undefined, '通行密钥注册成功');
    },
  );

  // A removed passkey takes the sessions it opened along (session-renewal.ts): every other session
  // of the user ends, this one goes on.
  app.delete('/api/user/passkey', { onRequest: requireUser }, async (request, reply) => {
    const user = currentUser(request);
    await requireFreshVerification(ctx, request, user.id);
    if (!(await changeFactors(ctx, user.id, async (trx) => (await deleteUserPasskeys(trx, user.id)) > 0))) {
      throw fail('passkey.not_bound');
    }
    await continueSession(ctx, request, reply, user.id);
    return ok(undefined, '通行密钥已解绑');
  });

  app.delete('/api/user/passkey/:id', { onRequest: requireUser, schema: { params: PasskeyIdParams } }, async (request, reply) => {
    const user = currentUser(request);
    await requireFreshVerification(ctx, request, user.id);
    if (!(await changeFactors(ctx, user.id, (trx) => deletePasskey(trx, user.id, request.params.id)))) {
      throw fail('passkey.not_found');
    }
    await continueSession(ctx, request, reply, user.id);
    return ok(undefined, '通行密钥已删除');
  });

  app.post(
    '/api/user/passkey/login/begin',
    { preHandler: criticalLimit, schema: { response: { 200: Envelope(CeremonyOptions) } } },
    async (request) => {
      assertEnabled();
      const publicKey = await assertionOptions(kv, relyingParty(options, request), 'login', 0);
      return ok({ options: { publicKey } });
    },
  );

  // A passkey that verified its holder (PIN, biometrics) is both factors; one that only showed
  // presence stands in for the password, and an account with TOTP still gets asked for its code.
  app.post(
    '/api/user/passkey/login/finish',
    { preHandler: criticalLimit, schema: { body: AssertionBody } },
    async (request, reply) => {
      assertEnabled();
      const rp = relyingParty(options, request);
      const { challenge } = await takeAssertionChallenge(kv, 'login', request.body);
      const passkey = await findPasskeyByCredentialId(db, request.body.id);
      const user = passkey ? await findUserById(db, passkey.user_id) : undefined;
      if (!passkey || !user || user.deleted_at !== null) throw fail('passkey.unknown_credential');
      const handle = assertedUserId(request.body);
      if (handle !== null && handle !== user.id) throw fail('passkey.unknown_credential');
      const { counter, userVerified } = await verifyAssertion(rp, passkey, challenge, request.body);
      await recordPasskeyUse(db, passkey.id, counter);
      if (user.status !== USER_ENABLED) throw fail('auth.user_banned');
      if (!userVerified) return logInOrAskSecondFactor(ctx, request, reply, user);
      await recordSignIn(db, user);
      startSession(request, reply, user);
      return ok(toPublicUser(user), '');
    },
  );

  app.post(
    '/api/user/passkey/verify/begin',
    { onRequest: requireUser, schema: { response: { 200: Envelope(CeremonyOptions) } } },
    async (request) => {
      assertEnabled();
      const user = currentUser(request);
      requireSessionKey(request);
      const list = await listPasskeys(db, user.id);
      if (list.length === 0) throw fail('passkey.not_bound');
      const publicKey = await assertionOptions(kv, relyingParty(options, request), 'verify', user.id, list);
      return ok({ options: { publicKey } });
    },
  );

  app.post(
    '/api/user/passkey/verify/finish',
    { onRequest: requireUser, schema: { body: AssertionBody, response: { 200: Envelope(VerifyResult) } } },
    async (request) => {
      assertEnabled();
      const user = currentUser(request);
      requireSessionKey(request);
      const rp = relyingParty(options, request);
      const { challenge, userId } = await takeAssertionChallenge(kv, 'verify', request.body);
      const passkey = await findPasskeyByCredentialId(db, request.body.id);
      if (userId !== user.id || !passkey || passkey.user_id !== user.id) throw fail('passkey.unknown_credential');
      const { counter } = await verifyAssertion(rp, passkey, challenge, request.body);
      await recordPasskeyUse(db, passkey.id, counter);
      await markPasskeyReady(ctx, request, user.id);
      const expires = await markVerified(ctx, request, user.id, 'passkey');
      return ok({ verified: true, expires_at: expires }, '验证成功');
    },
  );
}
