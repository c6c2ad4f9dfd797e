/** Model lists come as names or as `{id}` entries. */
export function modelNames(list: unknown): string[] {
  if (!Array.isArray(list)) return [];
  const names = list.map((m: unknown) =>
    typeof m === 'string' ? m : typeof m === 'object' && m !== null ? String((m as { id?: unknown }).id ?? '') : '',
  );
  return [...new Set(names.filter((n) => n !== ''))];
}
