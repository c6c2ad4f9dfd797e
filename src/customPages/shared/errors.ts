/** The text to show for a failed call: ApiError messages are server text or `app.error.*` keys. */
export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** The browser's answer to a WebAuthn prompt the person dismissed, or that timed out. */
export function isCancelled(err: unknown): boolean {
  return err instanceof Error && (err.name === 'NotAllowedError' || err.name === 'AbortError');
}
