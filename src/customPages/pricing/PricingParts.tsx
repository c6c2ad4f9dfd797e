/** Parts of the pricing page: its chip filters (groups, vendors), and the model and vendor cells. */
import type { ReactElement } from 'react';
import { useTranslate } from 'react-admin';
import Chip, { type ChipProps } from '@mui/material/Chip';
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

/** One choice of a chip filter row. */
export interface ChipOption<T> {
  key: string | number;
  label: string;
  value: T;
  color?: ChipProps['color'];
  icon?: ReactElement;
}

/** A labelled row of chips of which one is chosen (the pricing page's group and vendor filters). */
export function ChipFilterRow<T>({
  label,
  options,
  selected,
  onChoose,
}: {
  label: string;
  options: readonly ChipOption<T>[];
  selected: T;
  onChoose: (value: T) => void;
}) {
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap alignItems="center" role="group" aria-label={label}>
      <Typography variant="body2" color="text.secondary">
        {label}
      </Typography>
      {options.map((option) => (
        <Chip
          key={option.key}
          label={option.label}
          icon={option.icon}
          color={option.color ?? 'primary'}
          variant={selected === option.value ? 'filled' : 'outlined'}
          onClick={() => onChoose(option.value)}
          aria-pressed={selected === option.value}
        />
      ))}
    </Stack>
  );
}

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
  const options: ChipOption<VendorChoice>[] = [
    { key: 'all', label: translate(`${P}all_vendors`), value: ALL_VENDORS },
    ...vendors.map((vendor) => ({
      key: vendor.id,
      label: vendor.name,
      value: vendor.id,
      icon: <CatalogIcon icon={vendor.icon} name={vendor.name} size={18} />,
    })),
    ...(hasUnknown ? [{ key: 'unknown', label: translate(`${P}unknown_vendor`), value: UNKNOWN_VENDOR }] : []),
  ];
  return <ChipFilterRow label={translate(`${P}vendors`)} options={options} selected={selected} onChoose={onChoose} />;
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
