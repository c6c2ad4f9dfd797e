import { ra } from './ra';
import { app } from './app';
import { pages } from './pages';
import { users } from './users';

export const zh = { ...ra, app, pages, resources: { users } };
