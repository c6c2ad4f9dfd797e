/** ra-language-chinese ships plain CommonJS without types; it exports react-admin's message tree. */
declare module 'ra-language-chinese' {
  import type { TranslationMessages } from 'ra-core';
  const messages: TranslationMessages;
  export default messages;
}
