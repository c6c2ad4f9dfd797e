/** Unix seconds as `YYYY-MM-DD HH:mm:ss` in local time; 0 or empty shows nothing. */
export function formatTimestamp(seconds: number | null | undefined): string {
  if (!seconds) return '';
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** The label key of a field: its own, or react-admin's `resources.<name>.fields.<source>`. */
export function labelKey(resource: string, source: string, label?: string): string {
  return label ?? `resources.${resource}.fields.${source}`;
}
