/** resources.channels (and the custom pages of this area) */
export const channels = {};
