/** Strings of the shell: header, sidebar, footer, generic errors. */
export const app = {};
