/** resources.logs (and the custom pages of this area) */
export const logs = {};
