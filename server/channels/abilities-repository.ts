/**
 * The abilities table: one row per (group, model, channel), derived from the channel's group and
 * model lists. It is rewritten in the same transaction as every channel write, so it never
 * disagrees with the channels a reader sees; hence the channel reads here, of the columns the rows
 * are derived from.
 */
import type { Insertable, Kysely, Selectable } from 'kysely';
import type { AbilitiesTable, Channel, Database } from '../db/types.js';
import { CHANNEL_ENABLED } from './types.js';
import { splitList } from './input.js';

/** What an ability row is derived from. */
export type AbilitySource = Pick<Channel, 'id' | 'group' | 'models' | 'status' | 'priority' | 'weight' | 'tag'>;
export const ABILITY_SOURCE_COLUMNS = ['id', 'group', 'models', 'status', 'priority', 'weight', 'tag'] as const;

/** Rows per INSERT: 7 parameters each keeps every database well under its parameter limit. */
const INSERT_CHUNK = 500;
/** Ids per `IN (…)` list. */
export const ID_CHUNK = 1000;

export function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * Entries differing only in letter case collapse to the first: MySQL compares the primary key
 * case-insensitively, and one row per spelling would break the insert there.
 */
function caseless(list: string): string[] {
  const seen = new Set<string>();
  return splitList(list).filter((entry) => {
    const folded = entry.toLowerCase();
    if (seen.has(folded)) return false;
    seen.add(folded);
    return true;
  });
}

export function abilityRows(channel: AbilitySource): Insertable<AbilitiesTable>[] {
  const enabled = channel.status === CHANNEL_ENABLED ? 1 : 0;
  const rows: Insertable<AbilitiesTable>[] = [];
  for (const group of caseless(channel.group)) {
    for (const model of caseless(channel.models)) {
      rows.push({
        group,
        model,
        channel_id: channel.id,
        enabled,
        priority: channel.priority,
        weight: channel.weight,
        tag: channel.tag,
      });
    }
  }
  return rows;
}

async function insertRows(db: Kysely<Database>, rows: Insertable<AbilitiesTable>[]): Promise<void> {
  for (const part of chunks(rows, INSERT_CHUNK)) await db.insertInto('abilities').values(part).execute();
}

/** Replaces the ability rows of these channels. Call inside the transaction that wrote them. */
export async function rebuildAbilities(db: Kysely<Database>, channels: readonly AbilitySource[]): Promise<void> {
  for (const part of chunks(channels, ID_CHUNK)) {
    await db
      .deleteFrom('abilities')
      .where(
        'channel_id',
        'in',
        part.map((c) => c.id),
      )
      .execute();
  }
  await insertRows(db, channels.flatMap(abilityRows));
}

/** Rebuilds the ability rows of the channels with these ids from what is stored now. */
export async function rebuildAbilitiesOf(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  const channels: AbilitySource[] = [];
  for (const part of chunks(ids, ID_CHUNK)) {
    channels.push(...(await db.selectFrom('channels').select(ABILITY_SOURCE_COLUMNS).where('id', 'in', part).execute()));
  }
  await rebuildAbilities(db, channels);
}

export async function deleteAbilitiesOf(db: Kysely<Database>, ids: readonly number[]): Promise<void> {
  for (const part of chunks(ids, ID_CHUNK)) await db.deleteFrom('abilities').where('channel_id', 'in', part).execute();
}

/** The enabled rows, as the channel index groups them. */
export async function enabledAbilities(
  db: Kysely<Database>,
): Promise<Array<Pick<Selectable<AbilitiesTable>, 'group' | 'model' | 'channel_id' | 'priority' | 'weight'>>> {
  return db
    .selectFrom('abilities')
    .select(['group', 'model', 'channel_id', 'priority', 'weight'])
    .where('enabled', '=', 1)
    .execute();
}

/** Distinct models enabled for a group in the channel abilities, sorted. */
export async function modelsForGroup(db: Kysely<Database>, group: string): Promise<string[]> {
  const rows = await db
    .selectFrom('abilities')
    .select('model')
    .distinct()
    .where('group', '=', group)
    .where('enabled', '=', 1)
    .orderBy('model')
    .execute();
  return rows.map((r) => r.model);
}

/**
 * Rewrites the whole abilities table from the channels, in one transaction: drops rows of channels
 * that no longer exist and rebuilds every channel's rows. Returns how many channels were rebuilt.
 */
export async function fixAbilities(db: Kysely<Database>): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const channels = await trx.selectFrom('channels').select(ABILITY_SOURCE_COLUMNS).execute();
    await trx.deleteFrom('abilities').execute();
    await insertRows(trx, channels.flatMap(abilityRows));
    return channels.length;
  });
}
