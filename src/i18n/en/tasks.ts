/** resources.tasks: Task logs (/task) */
export const tasks = {
  name: 'Task logs',
};
