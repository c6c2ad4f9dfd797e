/**
 * Set-up of the console project (not of console-mocks: a file that mocks a module must be the first
 * to import it). Files share their worker's modules, so the console's module graph is loaded here,
 * in the first file's set-up, rather than piecemeal by whichever test first reaches a module: a load
 * still running when a file ended was refused by vitest (that file's environment was gone) and
 * failed the next file.
 */
await Promise.all([
  import('react-admin'),
  import('../../src/authProvider'),
  import('../../src/dataProvider'),
  import('../../src/i18n'),
  import('../../src/resources/registry'),
  import('../../src/customPages'),
]);

export {};
