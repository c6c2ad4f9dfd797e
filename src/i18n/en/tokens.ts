/** resources.tokens (and the custom pages of this area) */
export const tokens = {};
