/** resources.users */
export const users = {};
