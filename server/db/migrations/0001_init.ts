import type { CreateTableBuilder } from 'kysely';
import type { MigrationDb } from '../types.js';
import type { DbKind } from '../dsn.js';

// Frozen once released: later schema changes go into new numbered files.

type Table = CreateTableBuilder<string, never>;

export async function up(db: MigrationDb, kind: DbKind): Promise<void> {
  const id = (t: Table): Table =>
    kind === 'postgres'
      ? t.addColumn('id', 'serial', (c) => c.primaryKey())
      : t.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
  const big = 'bigint' as const;
  const str = (n: number) => `varchar(${n})` as const;

  await id(db.schema.createTable('users'))
    .addColumn('username', str(64), (c) => c.notNull())
    .addColumn('password', str(255), (c) => c.notNull())
    .addColumn('display_name', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('email', str(128), (c) => c.notNull().defaultTo(''))
    .addColumn('github_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('oidc_id', str(128), (c) => c.notNull().defaultTo(''))
    .addColumn('wechat_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('telegram_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('linux_do_id', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('access_token', str(64))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('used_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('request_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('group', str(64), (c) => c.notNull().defaultTo('default'))
    .addColumn('aff_code', str(32), (c) => c.notNull())
    .addColumn('aff_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('aff_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('aff_history_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('inviter_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('setting', 'text')
    .addColumn('remark', str(255))
    .addColumn('create_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('last_use_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', big)
    .execute();
  await db.schema.createIndex('users_username').unique().on('users').column('username').execute();
  await db.schema.createIndex('users_aff_code').unique().on('users').column('aff_code').execute();
  await db.schema.createIndex('users_access_token').unique().on('users').column('access_token').execute();
  await db.schema.createIndex('users_email').on('users').column('email').execute();
  await db.schema.createIndex('users_display_name').on('users').column('display_name').execute();
  await db.schema.createIndex('users_group').on('users').column('group').execute();
  await db.schema.createIndex('users_inviter_id').on('users').column('inviter_id').execute();

  await id(db.schema.createTable('tokens'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', str(64), (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('accessed_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('expired_time', big, (c) => c.notNull().defaultTo(-1))
    .addColumn('remain_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('unlimited_quota', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_limits_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_limits', 'text')
    .addColumn('allow_ips', 'text')
    .addColumn('used_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('group', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('deleted_at', big)
    .execute();
  await db.schema.createIndex('tokens_key').unique().on('tokens').column('key').execute();
  await db.schema.createIndex('tokens_user_id').on('tokens').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('tokens_name').on('tokens').column('name').execute();

  await id(db.schema.createTable('channels'))
    .addColumn('type', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('openai_organization', str(255))
    .addColumn('test_model', str(255))
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', str(128), (c) => c.notNull().defaultTo(''))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('test_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('response_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('base_url', str(255))
    .addColumn('other', 'text')
    .addColumn('balance', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('balance_updated_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('models', 'text', (c) => c.notNull())
    .addColumn('group', str(255), (c) => c.notNull().defaultTo('default'))
    .addColumn('used_quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('model_mapping', 'text')
    .addColumn('status_code_mapping', str(1024))
    .addColumn('priority', big, (c) => c.notNull().defaultTo(0))
    .addColumn('auto_ban', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('other_info', 'text')
    .addColumn('tag', str(128))
    .addColumn('setting', 'text')
    .addColumn('param_override', 'text')
    .addColumn('max_input_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expired_time', big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('channels_name').on('channels').column('name').execute();
  await db.schema.createIndex('channels_tag').on('channels').column('tag').execute();

  await db.schema
    .createTable('abilities')
    .addColumn('group', str(64), (c) => c.notNull())
    .addColumn('model', str(255), (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('priority', big, (c) => c.notNull().defaultTo(0))
    .addColumn('weight', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('tag', str(128))
    .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
    .execute();
  await db.schema.createIndex('abilities_channel_id').on('abilities').column('channel_id').execute();

  await id(db.schema.createTable('logs'))
    .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('type', 'integer', (c) => c.notNull())
    .addColumn('content', 'text')
    .addColumn('username', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('token_name', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('token_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('model_name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('prompt_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('completion_tokens', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('use_time', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('is_stream', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('channel_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('group', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('ip', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('other', 'text')
    .execute();
  // Every log list is "newest first within a time window", optionally narrowed by one column:
  // each index leads with the narrowing column and ends with created_at.
  await db.schema.createIndex('logs_created_at').on('logs').columns(['created_at', 'id']).execute();
  await db.schema.createIndex('logs_user_created').on('logs').columns(['user_id', 'created_at']).execute();
  await db.schema.createIndex('logs_type_created').on('logs').columns(['type', 'created_at']).execute();
  await db.schema.createIndex('logs_username_created').on('logs').columns(['username', 'created_at']).execute();
  await db.schema.createIndex('logs_model_created').on('logs').columns(['model_name', 'created_at']).execute();
  await db.schema.createIndex('logs_token_created').on('logs').columns(['token_name', 'created_at']).execute();
  await db.schema.createIndex('logs_channel_created').on('logs').columns(['channel_id', 'created_at']).execute();

  await db.schema
    .createTable('log_extends')
    .addColumn('log_id', 'integer', (c) => c.primaryKey())
    .addColumn('prompt', 'text')
    .addColumn('completion', 'text')
    .execute();

  await id(db.schema.createTable('redemptions'))
    .addColumn('user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('key', str(64), (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('name', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(100000))
    .addColumn('group', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('created_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('redeemed_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('used_user_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('deleted_at', big)
    .execute();
  await db.schema.createIndex('redemptions_key').unique().on('redemptions').column('key').execute();
  await db.schema.createIndex('redemptions_name').on('redemptions').column('name').execute();

  await db.schema
    .createTable('options')
    .addColumn('key', str(128), (c) => c.primaryKey())
    .addColumn('value', 'text')
    .execute();

  await id(db.schema.createTable('top_ups'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('amount', big, (c) => c.notNull().defaultTo(0))
    .addColumn('money', 'double precision', (c) => c.notNull().defaultTo(0))
    .addColumn('trade_no', str(128), (c) => c.notNull())
    .addColumn('payment_method', str(32), (c) => c.notNull().defaultTo(''))
    .addColumn('status', str(32), (c) => c.notNull().defaultTo('pending'))
    .addColumn('create_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('complete_time', big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('top_ups_trade_no').unique().on('top_ups').column('trade_no').execute();
  await db.schema.createIndex('top_ups_user_id').on('top_ups').column('user_id').execute();

  await id(db.schema.createTable('midjourneys'))
    .addColumn('code', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('action', str(40), (c) => c.notNull().defaultTo(''))
    .addColumn('mj_id', str(191), (c) => c.notNull().defaultTo(''))
    .addColumn('prompt', 'text')
    .addColumn('prompt_en', 'text')
    .addColumn('description', 'text')
    .addColumn('state', 'text')
    .addColumn('submit_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('finish_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('image_url', 'text')
    .addColumn('status', str(20), (c) => c.notNull().defaultTo(''))
    .addColumn('progress', str(30), (c) => c.notNull().defaultTo(''))
    .addColumn('fail_reason', 'text')
    .addColumn('channel_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('buttons', 'text')
    .addColumn('properties', 'text')
    .addColumn('created_at', big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('midjourneys_mj_id').on('midjourneys').column('mj_id').execute();
  await db.schema.createIndex('midjourneys_user_submit').on('midjourneys').columns(['user_id', 'submit_time']).execute();
  await db.schema.createIndex('midjourneys_status').on('midjourneys').columns(['status', 'progress']).execute();

  await id(db.schema.createTable('tasks'))
    .addColumn('created_at', big, (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', big, (c) => c.notNull().defaultTo(0))
    .addColumn('task_id', str(191), (c) => c.notNull().defaultTo(''))
    .addColumn('platform', str(30), (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .addColumn('action', str(40), (c) => c.notNull().defaultTo(''))
    .addColumn('status', str(20), (c) => c.notNull().defaultTo(''))
    .addColumn('fail_reason', 'text')
    .addColumn('submit_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('start_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('finish_time', big, (c) => c.notNull().defaultTo(0))
    .addColumn('progress', str(20), (c) => c.notNull().defaultTo(''))
    .addColumn('properties', 'text')
    .addColumn('data', 'text')
    .execute();
  await db.schema.createIndex('tasks_task_id').on('tasks').column('task_id').execute();
  await db.schema.createIndex('tasks_user_submit').on('tasks').columns(['user_id', 'submit_time']).execute();
  await db.schema.createIndex('tasks_status').on('tasks').columns(['status', 'progress']).execute();

  await id(db.schema.createTable('quota_data'))
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('username', str(64), (c) => c.notNull().defaultTo(''))
    .addColumn('model_name', str(255), (c) => c.notNull().defaultTo(''))
    .addColumn('channel_id', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('token_used', big, (c) => c.notNull().defaultTo(0))
    .addColumn('count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('quota', big, (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('quota_data_bucket')
    .unique()
    .on('quota_data')
    .columns(['user_id', 'model_name', 'channel_id', 'created_at'])
    .execute();
  await db.schema.createIndex('quota_data_created').on('quota_data').column('created_at').execute();
}
