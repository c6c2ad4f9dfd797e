/** The log row types, as the family numbers them: the one definition, server and console alike. */
export const LOG_TOPUP = 1;
export const LOG_CONSUME = 2;
export const LOG_MANAGE = 3;
export const LOG_SYSTEM = 4;
export const LOG_ERROR = 5;
export const LOG_REFUND = 6;

/** The same types by name, for the log API's shapes (server/logs/schemas.ts) and the console. */
export const LOG_TYPES = {
  topup: LOG_TOPUP,
  consume: LOG_CONSUME,
  manage: LOG_MANAGE,
  system: LOG_SYSTEM,
  error: LOG_ERROR,
  refund: LOG_REFUND,
} as const;
