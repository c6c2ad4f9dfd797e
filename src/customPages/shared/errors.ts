/** The text to show for a failed call: ApiError messages are server text or `app.error.*` keys. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
