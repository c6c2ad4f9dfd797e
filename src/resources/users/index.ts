import { lazy } from 'react';
import PeopleIcon from '@mui/icons-material/People';
import type { ResourceProps } from 'react-admin';

/** The users resource (`/user`); its screens load on first visit. */
const users = {
  list: lazy(() => import('./UserList')),
  icon: PeopleIcon,
  hasCreate: true,
  hasEdit: true,
  recordRepresentation: 'username',
} satisfies Omit<ResourceProps, 'name'>;

export default users;
