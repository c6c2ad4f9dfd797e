/** Strings of the custom pages (login, register, reset, setup, home, about, not found, personal). */
export const pages = {};
