/** ra-language-chinese ships plain CommonJS without types; it exports react-admin's message tree. */
declare module 'ra-language-chinese' {
  import type { TranslationMessages } from 'react-admin';
  const messages: TranslationMessages;
  export default messages;
}
