import type { CreateRedemptionBody, RedemptionPage, RedemptionView } from '../../../server/redemptions/schemas';

/** A row of the redemption codes list, as the server sends it (the whole code included). */
export type RedemptionRecord = RedemptionView;
export type { CreateRedemptionBody, RedemptionPage };

/** Spec 4: 1 unused, 2 disabled, 3 used. */
export const REDEMPTION_UNUSED = 1;
export const REDEMPTION_DISABLED = 2;
export const REDEMPTION_USED = 3;
