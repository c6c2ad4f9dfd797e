/** Unix seconds as `YYYY-MM-DD HH:mm:ss` in local time (spec 9); 0 or empty shows nothing. */
export function formatTimestamp(seconds: number | null | undefined): string {
  if (!seconds) return '';
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

export function labelKey(i18n: string, source: string, label?: string): string {
  return label ?? `resources.${i18n}.fields.${source}`;
}
