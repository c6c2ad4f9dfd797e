import chineseMessages from 'ra-language-chinese';

/** ra-language-chinese is old: keys react-admin 5 added are completed here. */
export const ra = { ...chineseMessages };
