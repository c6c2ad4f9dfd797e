/**
 * Each table has one repository, and balances move only through server/billing: a static scan of
 * server/**\/*.ts (migrations aside) for every statement that names a table (Kysely's builders and
 * joins, `sql.table`, and the insert helpers of server/db) against the files allowed to touch it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../server/db/types.js';

type Table = keyof Database;

const ROOT = join(import.meta.dirname, '../..');

/** The ledger: the only code that moves a balance, in the caller's transaction. */
const LEDGER = ['server/billing/journal-batch.ts', 'server/billing/recovery.ts', 'server/billing/ledger.ts'];

const OWNERS: Record<Table, { files: string[]; why: string }> = {
  users: {
    files: ['server/users/repository.ts', 'server/users/identity-repository.ts', 'server/subscriptions/repository.ts', ...LEDGER],
    why: 'user rows in users/ (the group a subscription upgrades, the billing preference in subscriptions/); quota, used_quota, request_count and aff_quota in the ledger',
  },
  tokens: {
    files: ['server/tokens/repository.ts', ...LEDGER],
    why: 'token rows in tokens/; remain_quota and used_quota as calls and refunds move them in the ledger',
  },
  channels: {
    files: [
      'server/channels/repository.ts',
      'server/channels/list-repository.ts',
      'server/channels/abilities-repository.ts',
      ...LEDGER,
    ],
    why: 'channel rows in channels/ (abilities are rebuilt from them); used_quota in the ledger',
  },
  abilities: { files: ['server/channels/abilities-repository.ts'], why: 'derived from channel rows, rewritten with them' },
  channel_keys: { files: ['server/channels/keys/repository.ts'], why: 'the disabled keys of multi-key channels' },
  logs: { files: ['server/logs/repository.ts', 'server/logs/list-repository.ts'], why: 'one recordLog(), one batched insert' },
  checkins: { files: ['server/checkin/repository.ts'], why: 'one row per user and day checked in, written with its credit' },
  custom_oauth_providers: { files: ['server/oauth/custom/repository.ts'], why: 'the custom sign-in providers' },
  user_oauth_bindings: { files: ['server/oauth/custom/repository.ts'], why: 'accounts bound through custom providers' },
  log_totals: { files: ['server/logs/totals.ts'], why: 'written with the log rows, read by the log stat' },
  log_extends: { files: ['server/logs/repository.ts', 'server/logs/list-repository.ts'], why: 'part of a log row' },
  log_bodies: { files: ['server/logs/bodies-repository.ts'], why: 'opt-in request and answer bodies, by request id' },
  redemptions: { files: ['server/redemptions/repository.ts'], why: 'redemption codes' },
  options: { files: ['server/options/store.ts'], why: 'the option store writes through to its table' },
  top_ups: {
    files: ['server/topup/repository.ts', 'server/topup/card-repository.ts'],
    why: 'top-up orders and their card-payment moves',
  },
  payment_events: { files: ['server/topup/card-repository.ts'], why: 'payment provider events taken once' },
  subscription_plans: { files: ['server/subscriptions/repository.ts'], why: 'the plans on sale' },
  spend_caps: { files: ['server/subscriptions/caps-repository.ts'], why: 'spend limits of tokens and users per period' },
  user_subscriptions: {
    files: [
      'server/subscriptions/repository.ts',
      'server/billing/subscription-batch.ts',
      'server/billing/recovery.ts',
      'server/billing/ledger.ts',
    ],
    why: 'subscription rows in subscriptions/; what a period has left and used_total as calls and refunds move them in the ledger',
  },
  prefill_groups: { files: ['server/prefill/repository.ts'], why: 'the named lists channel fields are prefilled from' },
  midjourneys: {
    files: ['server/tasks/repository.ts', 'server/tasks/list-repository.ts', 'server/tasks/midjourney/repository.ts'],
    why: 'drawing tasks: their platform, the shared failure and the console list',
  },
  tasks: {
    files: [
      'server/tasks/repository.ts',
      'server/tasks/list-repository.ts',
      'server/tasks/suno/repository.ts',
      'server/tasks/video/repository.ts',
    ],
    why: 'other platforms’ tasks: their platform, the shared failure and the console list',
  },
  quota_data: {
    files: ['server/logs/hourly-totals.ts', 'server/logs/quota-data.ts'],
    why: 'the hourly totals: writer and reads',
  },
  quota_data_models: {
    files: ['server/logs/hourly-totals.ts', 'server/logs/quota-data.ts'],
    why: 'quota_data summed over users: written with it, read by the dashboard and channel statistics',
  },
  quota_data_model_hours: {
    files: ['server/logs/hourly-totals.ts', 'server/logs/quota-data.ts'],
    why: 'quota_data summed over users and channels: written with it, read by the dashboard of all users',
  },
  quota_data_users: {
    files: ['server/logs/hourly-totals.ts', 'server/logs/quota-data.ts'],
    why: 'quota_data summed over models and channels: written with it, read by the ranking of users',
  },
  reservations: {
    files: ['server/billing/journal-batch.ts', 'server/billing/recovery.ts'],
    why: 'holds: the journal and recovery',
  },
  nodes: { files: ['server/cluster/repository.ts'], why: 'the gateway processes’ heartbeats' },
  leases: { files: ['server/cluster/repository.ts'], why: 'which process holds the background jobs' },
  two_fa: { files: ['server/mfa/twofa-repository.ts'], why: 'TOTP enrolments' },
  two_fa_backup_codes: { files: ['server/mfa/twofa-repository.ts'], why: 'the backup codes of a TOTP enrolment' },
  passkeys: { files: ['server/mfa/passkey-repository.ts'], why: 'WebAuthn credentials' },
  audit_logs: { files: ['server/audit/repository.ts'], why: 'the admin audit log' },
  vendors: { files: ['server/catalog/vendors-repository.ts'], why: 'the model catalogue’s vendors' },
  models: { files: ['server/catalog/models-repository.ts'], why: 'the model catalogue’s metadata rows' },
};

/** Files whose statements name their table through a variable, and why that is safe. */
const DYNAMIC: Record<string, string> = {
  'server/db/helpers.ts': 'insertWithId: its callers name the table (checked as a helper call)',
  'server/db/prepared.ts': 'insertRows: its callers name the table (checked as a helper call)',
  'server/billing/journal-batch.ts': 'the balance statements shared by users and tokens',
  'server/tasks/repository.ts': 'either task table',
  'server/tasks/list-repository.ts': 'either task table, and a count over a subquery',
  'server/logs/list-repository.ts': 'a count over a subquery',
  'server/logs/hourly-totals.ts': 'one upsert for quota_data and its three roll-ups',
};

/** Columns only the ledger writes in an UPDATE. */
const BALANCES: Partial<Record<Table, string[]>> = {
  users: ['quota', 'used_quota', 'request_count', 'aff_quota', 'aff_history_quota'],
  tokens: ['remain_quota', 'used_quota'],
  channels: ['used_quota'],
};

/** Query builders whose first argument is the table (or a subquery, or a list of tables). */
const BUILDERS = new Set([
  'selectFrom',
  'updateTable',
  'insertInto',
  'replaceInto',
  'deleteFrom',
  'mergeInto',
  'innerJoin',
  'leftJoin',
  'rightJoin',
  'fullJoin',
]);
/** Helpers that take the table among their arguments. */
const HELPERS = new Set(['insertWithId', 'insertRows']);

const TABLES = Object.keys(OWNERS) as Table[];
const isTable = (name: string): name is Table => (TABLES as string[]).includes(name);

interface Violation {
  file: string;
  line: number;
  message: string;
}

function calleeName(call: ts.CallExpression): string | undefined {
  const callee = call.expression;
  if (ts.isIdentifier(callee)) return callee.text;
  if (ts.isPropertyAccessExpression(callee)) {
    if (callee.name.text === 'table' && ts.isIdentifier(callee.expression) && callee.expression.text === 'sql')
      return 'sql.table';
    return callee.name.text;
  }
  return undefined;
}

/** `'users'`, `'users as u'` and `['users', 'tokens']` name tables; anything else is dynamic. */
function namedTables(arg: ts.Expression): string[] | null {
  if (ts.isStringLiteralLike(arg)) return [arg.text.split(/\s+as\s+/i)[0]!.trim()];
  if (ts.isArrayLiteralExpression(arg)) {
    const names = arg.elements.map((e) => (ts.isStringLiteralLike(e) ? e.text.split(/\s+as\s+/i)[0]!.trim() : null));
    return names.every((n): n is string => n !== null) ? names : null;
  }
  return null;
}

/** The balance columns a `.set(…)` of this UPDATE names literally. */
function balanceColumnsSet(update: ts.CallExpression, columns: string[]): string[] {
  const found: string[] = [];
  // Walk up the method chain: updateTable(…).set(…).where(…)…
  for (let node: ts.Node = update; ;) {
    const access = node.parent;
    if (!access || !ts.isPropertyAccessExpression(access) || access.expression !== node) break;
    const call = access.parent;
    if (!call || !ts.isCallExpression(call) || call.expression !== access) break;
    if (access.name.text === 'set') {
      const [first] = call.arguments;
      if (first && ts.isStringLiteralLike(first) && columns.includes(first.text)) found.push(first.text);
      const object = first && ts.isArrowFunction(first) ? first.body : first;
      const literal = object && ts.isParenthesizedExpression(object) ? object.expression : object;
      if (literal && ts.isObjectLiteralExpression(literal)) {
        for (const p of literal.properties) {
          const name = p.name && (ts.isIdentifier(p.name) || ts.isStringLiteralLike(p.name)) ? p.name.text : undefined;
          if (name && columns.includes(name)) found.push(name);
        }
      }
    }
    node = call;
  }
  return found;
}

/** Every statement of `source` (the text of `file`) that touches a table outside its owners. */
function scan(file: string, source: string): Violation[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const out: Violation[] = [];
  const report = (node: ts.Node, message: string) =>
    out.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart()).line + 1, message });
  const check = (node: ts.Node, how: string, table: string) => {
    if (!isTable(table)) return;
    const owner = OWNERS[table];
    if (!owner.files.includes(file)) report(node, `${how}('${table}'): ${table} belongs to ${owner.files.join(', ')}`);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const name = calleeName(node);
      const [first] = node.arguments;
      if (name && (BUILDERS.has(name) || name === 'sql.table') && first) {
        const tables = namedTables(first);
        if (tables === null) {
          if (!(file in DYNAMIC)) report(node, `${name}(…) names its table through an expression: write the table name`);
        } else {
          for (const t of tables) check(node, name, t);
          const balances =
            name === 'updateTable' && tables.length === 1 && isTable(tables[0]!) ? BALANCES[tables[0]!] : undefined;
          if (balances && !LEDGER.includes(file)) {
            for (const column of balanceColumnsSet(node, balances)) {
              report(node, `updateTable('${tables[0]}') sets ${column}: balances move only through ${LEDGER.join(', ')}`);
            }
          }
        }
      } else if (name && HELPERS.has(name)) {
        for (const arg of node.arguments) if (ts.isStringLiteralLike(arg)) check(node, name, arg.text);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function serverFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : serverFiles(path);
    return entry.name.endsWith('.ts') ? [relative(ROOT, path).split(sep).join('/')] : [];
  });
}

describe('each table has one repository; balances move only through server/billing', () => {
  const files = serverFiles(join(ROOT, 'server'));

  it('touches every table only from the files allowed to', () => {
    const violations = files.flatMap((file) => scan(file, readFileSync(join(ROOT, file), 'utf8')));
    expect(violations.map((v) => `${v.file}:${v.line} ${v.message}`)).toEqual([]);
  });

  it('names only files that exist', () => {
    const listed = [...new Set([...Object.values(OWNERS).flatMap((o) => o.files), ...Object.keys(DYNAMIC)])];
    expect(listed.filter((f) => !files.includes(f))).toEqual([]);
  });

  it('catches a query in the wrong file, a table named through a variable and a balance set outside the ledger', () => {
    const stray = [
      "const a = await db.selectFrom('users').selectAll().execute();",
      "await trx.insertInto('logs').values(row).execute();",
      "await insertWithId(db, kind, 'tokens', values);",
      "const t = 'users'; await db.deleteFrom(t).execute();",
    ].join('\n');
    expect(scan('server/relay/stray.ts', stray).map((v) => v.line)).toEqual([1, 2, 3, 4]);
    const balance = "await db.updateTable('users').set({ quota: sql`quota + ${n}` }).where('id', '=', id).execute();";
    expect(scan('server/users/repository.ts', balance).map((v) => v.message)).toEqual([
      `updateTable('users') sets quota: balances move only through ${LEDGER.join(', ')}`,
    ]);
    expect(scan('server/billing/ledger.ts', balance)).toEqual([]);
  });
});
