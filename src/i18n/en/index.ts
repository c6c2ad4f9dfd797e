import englishMessages from 'ra-language-english';
import { app } from './app';
import { pages } from './pages';
import { users } from './users';
import { tokens } from './tokens';
import { channels } from './channels';
import { logs } from './logs';
import { midjourneys } from './midjourneys';
import { tasks } from './tasks';
import { redemptions } from './redemptions';

export const en = {
  ...englishMessages,
  app,
  pages,
  resources: { users, tokens, channels, logs, midjourneys, tasks, redemptions },
};
