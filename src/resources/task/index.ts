import TaskAltIcon from '@mui/icons-material/TaskAlt';
import type { TaskItem } from '../../../server/tasks/list-schemas';
import { isAdmin, ROLE_ADMIN, ROLE_USER } from '../../authProvider/roles';
import { storedRole } from '../log/endpoints';
import { defineResource } from '../schema/definition';

/** The task log (`/task`, Suno music and lyrics): admins read every user's tasks, others their own. */
export default defineResource<TaskItem, 'task'>({
  name: 'task',
  endpoints: {
    get base() {
      return isAdmin(storedRole()) ? '/api/task/' : '/api/task/self/';
    },
  },
  access: { '*': ROLE_USER, all_users: ROLE_ADMIN },
  icon: TaskAltIcon,
  menu: [{ section: 'console_section', order: 50, flag: 'enable_task' }],
  schema: () => import('./schema'),
});
