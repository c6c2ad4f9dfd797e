import { lazy } from 'react';
import TaskAltIcon from '@mui/icons-material/TaskAlt';
import type { ResourceProps } from 'react-admin';

/** Task logs (/task); its screens load on first visit. */
const tasks = {
  list: lazy(() => import('./TaskList')),
  icon: TaskAltIcon,
} satisfies Omit<ResourceProps, 'name'>;

export default tasks;
