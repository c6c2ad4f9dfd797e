/** resources.tasks: Task logs (/task) */
export const tasks = {
  name: '任务日志',
};
