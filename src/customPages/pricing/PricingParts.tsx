/** Parts of the pricing page about who makes a model: the vendor filter, and the model and vendor cells. */
import { useTranslate } from 'react-admin';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { CatalogIcon } from '../../resources/shared/CatalogIcon';
import {
  ALL_VENDORS,
  UNKNOWN_VENDOR,
  tagsOf,
  vendorOf,
  type PricingItem,
  type PricingVendor,
  type VendorChoice,
} from './pricing';

const P = 'pricing.';

/** "All vendors", each listed vendor, and "Unknown" when some model has none. */
export function VendorFilter({
  vendors,
  hasUnknown,
  selected,
  onChoose,
}: {
  vendors: readonly PricingVendor[];
  hasUnknown: boolean;
  selected: VendorChoice;
  onChoose: (vendor: VendorChoice) => void;
}) {
  const translate = useTranslate();
  const chip = (key: string | number, label: string, value: VendorChoice, icon?: PricingVendor) => (
    <Chip
      key={key}
      label={label}
      icon={icon ? <CatalogIcon icon={icon.icon} name={icon.name} size={18} /> : undefined}
      color="primary"
      variant={selected === value ? 'filled' : 'outlined'}
      onClick={() => onChoose(value)}
      aria-pressed={selected === value}
    />
  );
  return (
    <Stack
      direction="row"
      spacing={1}
      flexWrap="wrap"
      useFlexGap
      alignItems="center"
      role="group"
      aria-label={translate(`${P}vendors`)}
    >
      <Typography variant="body2" color="text.secondary">
        {translate(`${P}vendors`)}
      </Typography>
      {chip('all', translate(`${P}all_vendors`), ALL_VENDORS)}
      {vendors.map((vendor) => chip(vendor.id, vendor.name, vendor.id, vendor))}
      {hasUnknown && chip('unknown', translate(`${P}unknown_vendor`), UNKNOWN_VENDOR)}
    </Stack>
  );
}

export function VendorCell({ vendors, item }: { vendors: readonly PricingVendor[]; item: PricingItem }) {
  const translate = useTranslate();
  const vendor = vendorOf(vendors, item);
  if (!vendor) {
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(`${P}unknown_vendor`)}
      </Typography>
    );
  }
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <CatalogIcon icon={vendor.icon} name={vendor.name} size={20} />
      <span>{vendor.name}</span>
    </Stack>
  );
}

/** The model's name, its description under it, and its tags. */
export function ModelCell({ item }: { item: PricingItem }) {
  const tags = tagsOf(item);
  return (
    <Stack spacing={0.5}>
      <Stack direction="row" spacing={1} alignItems="center">
        {item.icon !== '' && <CatalogIcon icon={item.icon} name={item.model_name} size={20} />}
        <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
          {item.model_name}
        </Typography>
      </Stack>
      {item.description !== '' && (
        <Typography variant="caption" color="text.secondary">
          {item.description}
        </Typography>
      )}
      {tags.length > 0 && (
        <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
          {tags.map((tag) => (
            <Chip key={tag} size="small" label={tag} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}
