/**
 * Database errors worth trying again: lost or refused connections, deadlocks, lock timeouts and a
 * busy SQLite file. Anything else (a constraint, a value the column refuses) fails the same way
 * every time.
 */
const TRANSIENT_CODES = new Set([
  // PostgreSQL: serialization failure, deadlock, server shutting down, connection failures, too many connections
  '40001',
  '40P01',
  '57P01',
  '57P02',
  '57P03',
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
  '53300',
  // MySQL / MariaDB
  'ER_LOCK_DEADLOCK',
  'ER_LOCK_WAIT_TIMEOUT',
  'PROTOCOL_CONNECTION_LOST',
  'ER_CON_COUNT_ERROR',
  // SQLite
  'SQLITE_BUSY',
  'SQLITE_BUSY_SNAPSHOT',
  'SQLITE_LOCKED',
  // Sockets
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
]);

export function isTransientDbError(err: unknown): boolean {
  if (!err || typeof err !== 'object') return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  return typeof message === 'string' && /Connection terminated|connection (is )?closed|Cannot enqueue/i.test(message);
}

/** Whether a database error is a unique-key violation (SQLite, PostgreSQL or MySQL). */
export function isUniqueViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return (
    code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505' || code === 'ER_DUP_ENTRY'
  );
}
