/** The text to notify for a failed call of a resource screen: the error's message, or a generic key. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'app.error.request_failed';
}
