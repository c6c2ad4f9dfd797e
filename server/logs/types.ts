/** The log row types, as the family numbers them. */
export const LOG_TOPUP = 1;
export const LOG_CONSUME = 2;
export const LOG_MANAGE = 3;
export const LOG_SYSTEM = 4;
export const LOG_ERROR = 5;
export const LOG_REFUND = 6;
