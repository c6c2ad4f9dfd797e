/** A token's model list as stored and sent: names separated by commas. */
export function parseModelLimits(text: string | null | undefined): string[] {
  const names = (text ?? '')
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return [...new Set(names)];
}

/** The stored form: trimmed, without empty entries or repeats. */
export function normalizeModelLimits(text: string | null | undefined): string {
  return parseModelLimits(text).join(',');
}
