/** The only way into `spend_caps`. */
import type { Db } from '../db/index.js';
import type { SpendCap } from '../db/types.js';

export const CAP_PERIODS = ['daily', 'weekly', 'monthly'] as const;
export type CapPeriod = (typeof CAP_PERIODS)[number];
export type CapSubject = 'token' | 'user';

export async function findCaps(db: Db, userId: number, tokenId: number): Promise<SpendCap[]> {
  return db
    .selectFrom('spend_caps')
    .selectAll()
    .where((eb) =>
      eb.or([
        eb.and([eb('subject', '=', 'user'), eb('subject_id', '=', userId)]),
        eb.and([eb('subject', '=', 'token'), eb('subject_id', '=', tokenId)]),
      ]),
    )
    .execute();
}

export async function findCap(db: Db, subject: CapSubject, id: number): Promise<SpendCap | undefined> {
  return db.selectFrom('spend_caps').selectAll().where('subject', '=', subject).where('subject_id', '=', id).executeTakeFirst();
}

/** Sets the cap (limit 0 removes it). */
export async function setCap(
  db: Db,
  subject: CapSubject,
  id: number,
  period: CapPeriod,
  limit: number,
  now: number,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.deleteFrom('spend_caps').where('subject', '=', subject).where('subject_id', '=', id).execute();
    if (limit > 0) {
      await trx.insertInto('spend_caps').values({ subject, subject_id: id, period, cap_limit: limit, updated_at: now }).execute();
    }
  });
}
