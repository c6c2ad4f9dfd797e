/** Placeholder until the Task logs (/task) screen lands. */
export default function TaskList() {
  return null;
}
