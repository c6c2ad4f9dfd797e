/**
 * The family's balance adjustment, POST /api/user/manage {action: "add_quota", mode, value}: add
 * `value`, take it away, or set the balance to it. The rules are those of the console's add-quota
 * dialog (PUT /api/user/ with a quota): a balance never goes below zero, and each change writes a
 * manage log row naming the admin in the same transaction as the balance moves.
 */
import { changeUserQuota, setUserQuota } from '../billing/ledger.js';
import type { Db } from '../db/index.js';
import type { DbKind } from '../db/dsn.js';
import { nowSeconds } from '../db/index.js';
import type { User } from '../db/types.js';
import { fail } from '../http/errors.js';
import { logText, withText, type LogText } from '../logs/messages.js';
import { recordLog } from '../logs/repository.js';
import { LOG_MANAGE } from '../logs/types.js';
import type { OptionStore } from '../options/store.js';
import { findUserById } from './repository.js';
import type { QuotaMode } from './schemas.js';

export interface QuotaChange {
  mode?: QuotaMode | undefined;
  value?: number | undefined;
}

/** Applies the change to `user` (whose rights the caller has checked) and answers the new balance. */
export async function adjustQuota(
  db: Db,
  kind: DbKind,
  options: OptionStore,
  admin: User,
  user: User,
  change: QuotaChange,
): Promise<number> {
  const { mode, value } = change;
  if (mode === undefined) throw fail('user.quota_mode_invalid');
  if (value === undefined) throw fail('user.quota_value_required');
  if (mode !== 'override' && value <= 0) throw fail('user.quota_change_zero');
  if (mode === 'override' && value < 0) throw fail('user.quota_negative');
  return db.transaction().execute(async (trx) => {
    let text: LogText;
    switch (mode) {
      case 'add':
        await changeUserQuota(trx, user.id, value);
        text = logText(options, 'quota_add', { quota: value });
        break;
      case 'subtract':
        if (!(await changeUserQuota(trx, user.id, -value))) throw fail('user.quota_negative');
        text = logText(options, 'quota_subtract', { quota: value });
        break;
      case 'override': {
        const before = (await findUserById(trx, user.id))?.quota ?? user.quota;
        // Only while the balance is what was read: a relay charge landing in between is not overwritten.
        if (!(await setUserQuota(trx, user.id, before, value))) throw fail('user.quota_changed');
        text = logText(options, 'quota_override', { from_quota: before, to_quota: value });
        break;
      }
    }
    await recordLog(trx, kind, {
      user_id: user.id,
      username: user.username,
      created_at: nowSeconds(),
      type: LOG_MANAGE,
      ...withText(text, { admin_info: { admin_id: admin.id, admin_username: admin.username } }),
    });
    const after = await findUserById(trx, user.id);
    return after?.quota ?? 0;
  });
}
