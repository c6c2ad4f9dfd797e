import englishMessages from 'ra-language-english';
import { app } from './app';
import { pages } from './pages';
import { users } from './users';

export const en = { ...englishMessages, app, pages, resources: { users } };
