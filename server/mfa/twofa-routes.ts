/**
 * Two-factor sign-in with TOTP (new-api's API): status, enrolment (setup → enable with a first
 * code), backup codes, disabling, and the second step of signing in. The secret leaves the server
 * once, in the setup answer; backup codes once, when made. Wrong codes count toward the account's
 * lockout (second-factor.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { currentUser, requireUser } from '../auth/guard.js';
import { accountKey, isLocked } from '../accounts/lockout.js';
import { nowSeconds } from '../db/index.js';
import type { User } from '../db/types.js';
import { ok } from '../http/envelope.js';
import { fail } from '../http/errors.js';
import { Envelope } from '../http/schemas.js';
import { logText, withText, type LogMessageKey } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_SYSTEM } from '../logs/types.js';
import { criticalLimit } from '../ratelimit/hooks.js';
import { requireFreshVerification } from './fresh-verification.js';
import { changeFactors, continueSession } from './session-renewal.js';
import { completePendingLogin, pendingLoginUser } from './login-step.js';
import { checkSecondFactor } from './second-factor.js';
import { BackupCodes, CodeBody, DisableBody, TwoFaSetup, TwoFaStatus } from './schemas.js';
import { backupCodeHash, newBackupCodes, newTotpSecret, totpStep, totpUri } from './totp.js';
import {
  confirmEnrolment,
  countUnusedBackupCodes,
  findTwoFa,
  removeTwoFa,
  replaceBackupCodes,
  startEnrolment,
} from './twofa-repository.js';

export default async function twoFaRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  const ctx = app.ctx;
  const { db, options } = ctx;

  async function note(user: User, key: LogMessageKey): Promise<void> {
    await recordLog(db, ctx.dbKind, {
      user_id: user.id,
      username: user.username,
      created_at: nowSeconds(),
      type: LOG_SYSTEM,
      ...withText(logText(null, key)),
    });
  }

  app.get(
    '/api/user/2fa/status',
    { onRequest: requireUser, schema: { response: { 200: Envelope(TwoFaStatus) } } },
    async (request) => {
      const user = currentUser(request);
      const twoFa = await findTwoFa(db, user.id);
      const enabled = twoFa?.enabled === 1;
      const status: TwoFaStatus = {
        enabled,
        locked: await isLocked(ctx, accountKey(user, '')),
        backup_codes_remaining: enabled ? await countUnusedBackupCodes(db, user.id) : 0,
      };
      return ok(status);
    },
  );

  app.post(
    '/api/user/2fa/setup',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { response: { 200: Envelope(TwoFaSetup) } } },
    async (request) => {
      const user = currentUser(request);
      if ((await findTwoFa(db, user.id))?.enabled === 1) throw fail('twofa.already_enabled');
      const secret = newTotpSecret();
      const codes = newBackupCodes();
      await db.transaction().execute(async (trx) => {
        await startEnrolment(
          trx,
          user.id,
          secret,
          codes.map((c) => backupCodeHash(user.id, c)),
        );
      });
      const setup: TwoFaSetup = {
        secret,
        qr_code_data: totpUri(secret, options.string('SystemName'), user.username),
        backup_codes: codes,
      };
      return ok(setup, '两步验证设置已初始化，请用认证器扫描二维码并输入验证码完成设置');
    },
  );

  app.post(
    '/api/user/2fa/enable',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { body: CodeBody } },
    async (request, reply) => {
      const user = currentUser(request);
      const twoFa = await findTwoFa(db, user.id);
      if (!twoFa) throw fail('twofa.setup_required');
      if (twoFa.enabled === 1) throw fail('twofa.already_enabled');
      const step = totpStep(twoFa.secret, request.body.code);
      if (step === null) throw fail('twofa.code_invalid');
      // A change of factors ends the user's other sessions (session-renewal.ts); this one goes on.
      if (!(await changeFactors(ctx, user.id, (trx) => confirmEnrolment(trx, user.id, step))))
        throw fail('twofa.already_enabled');
      await continueSession(ctx, request, reply, user.id);
      await note(user, 'twofa_enabled');
      return ok(undefined, '两步验证已启用');
    },
  );

  app.post(
    '/api/user/2fa/disable',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { body: DisableBody } },
    async (request, reply) => {
      const user = currentUser(request);
      if ((await findTwoFa(db, user.id))?.enabled !== 1) throw fail('twofa.not_enabled');
      const code = request.body.code?.trim();
      if (code) await checkSecondFactor(ctx, user.id, code, { allowBackup: true });
      else await requireFreshVerification(ctx, request, user.id);
      if (await changeFactors(ctx, user.id, (trx) => removeTwoFa(trx, user.id)))
        await continueSession(ctx, request, reply, user.id);
      await note(user, 'twofa_disabled');
      return ok(undefined, '两步验证已停用');
    },
  );

  app.post(
    '/api/user/2fa/backup_codes',
    { onRequest: requireUser, preHandler: criticalLimit, schema: { body: CodeBody, response: { 200: Envelope(BackupCodes) } } },
    async (request) => {
      const user = currentUser(request);
      // A TOTP code only: the last backup code must not be able to mint ten more.
      await checkSecondFactor(ctx, user.id, request.body.code, { allowBackup: false });
      const codes = newBackupCodes();
      await db.transaction().execute(async (trx) => {
        await replaceBackupCodes(
          trx,
          user.id,
          codes.map((c) => backupCodeHash(user.id, c)),
        );
      });
      await note(user, 'twofa_backup_codes');
      return ok({ backup_codes: codes }, '备用码已重新生成');
    },
  );

  app.post('/api/user/login/2fa', { preHandler: criticalLimit, schema: { body: CodeBody } }, async (request, reply) => {
    const user = await pendingLoginUser(ctx, request);
    await checkSecondFactor(ctx, user.id, request.body.code, { allowBackup: true });
    return completePendingLogin(ctx, request, reply, user);
  });
}
