/**
 * The icon of a vendor or model: an http(s) address is shown as an image; anything else (an icon
 * name from new-api's catalogue, or nothing) as the first letter of `name`. Only http(s) addresses
 * ever reach an `<img>`, whatever a row holds.
 */
import { Avatar } from '@mui/material';

export function isImageAddress(icon: string): boolean {
  return /^https?:\/\//i.test(icon.trim());
}

export function CatalogIcon({ icon, name, size = 24 }: { icon: string; name: string; size?: number }) {
  const sx = { width: size, height: size, fontSize: size * 0.5 };
  if (isImageAddress(icon))
    return <Avatar src={icon.trim()} alt={name} variant="rounded" sx={sx} imgProps={{ referrerPolicy: 'no-referrer' }} />;
  return (
    <Avatar variant="rounded" sx={sx} aria-hidden>
      {(name.trim()[0] ?? '?').toUpperCase()}
    </Avatar>
  );
}
