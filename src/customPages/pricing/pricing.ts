/**
 * The model pricing table as plain functions (input USD per 1M tokens = model ratio × 2, output =
 * that × completion ratio): prices from the ratios, the ratio colours, search and group filtering.
 */
import type { PricingAnswer, PricingItem, PricingVendor } from '../../../server/pricing/schemas';

export type { PricingAnswer, PricingItem, PricingVendor };

export const QUOTA_TYPE_CALL = 1;
export const QUOTA_TYPE_SECOND = 2;

/** Choice of the group filter meaning every group. */
export const ALL_GROUPS = '';

/** Choice of the vendor filter meaning every vendor; `vendor_id` 0 is "unknown". */
export const ALL_VENDORS = null;
export const UNKNOWN_VENDOR = 0;
export type VendorChoice = number | typeof ALL_VENDORS;

export const PAGE_SIZES = [10, 20, 50, 100];

/** Ratio 1 = 2 USD per 1M input tokens. */
const USD_PER_MILLION_PER_RATIO = 2;

export function isPerCall(item: PricingItem): boolean {
  return item.quota_type === QUOTA_TYPE_CALL;
}

/** A video model priced per second (`model_price` USD per second, before any size multiplier). */
export function isPerSecond(item: PricingItem): boolean {
  return item.quota_type === QUOTA_TYPE_SECOND;
}

/** A per-token model without a ratio: the gateway refuses it unless unset prices are accepted. */
export function isUnpriced(item: PricingItem): boolean {
  return !isPerCall(item) && !isPerSecond(item) && item.model_ratio === 0;
}

/** USD per 1M input tokens in a group: model ratio × 2 × group ratio. */
export function inputPrice(item: PricingItem, groupRatio: number): number {
  return item.model_ratio * USD_PER_MILLION_PER_RATIO * groupRatio;
}

/** USD per 1M output tokens: the input price × the completion ratio. */
export function outputPrice(item: PricingItem, groupRatio: number): number {
  return inputPrice(item, groupRatio) * item.completion_ratio;
}

/** USD per call of a per-call model: its price × the group ratio. */
export function callPrice(item: PricingItem, groupRatio: number): number {
  return item.model_price * groupRatio;
}

/** Dollars with up to 6 decimals and no trailing zeros: $0.15, $2.5, $0.000075. */
export function formatUsd(value: number): string {
  return `$${Number(value.toFixed(6))}`;
}

export type RatioColor = 'error' | 'warning' | 'info' | 'success';

/** Ratio label colour, so expensive models stand out: above 5 red, above 3 orange, above 1 blue, else green. */
export function ratioColor(ratio: number): RatioColor {
  if (ratio > 5) return 'error';
  if (ratio > 3) return 'warning';
  if (ratio > 1) return 'info';
  return 'success';
}

/** The group a page opens with: the person's own group when offered, else default, else the first. */
export function initialGroup(answer: Pick<PricingAnswer, 'usable_group'>, ownGroup: string | undefined): string {
  const groups = Object.keys(answer.usable_group);
  if (ownGroup && groups.includes(ownGroup)) return ownGroup;
  if (groups.includes('default')) return 'default';
  return groups[0] ?? 'default';
}

/** The vendor of an item among the answer's vendors; undefined when unknown. */
export function vendorOf(vendors: readonly PricingVendor[], item: PricingItem): PricingVendor | undefined {
  return item.vendor_id === UNKNOWN_VENDOR ? undefined : vendors.find((vendor) => vendor.id === item.vendor_id);
}

/** The vendors to filter by: those of the listed items, in the answer's order. */
export function vendorsListed(answer: Pick<PricingAnswer, 'data' | 'vendors'>): PricingVendor[] {
  const used = new Set(answer.data.map((item) => item.vendor_id));
  return answer.vendors.filter((vendor) => used.has(vendor.id));
}

/** Tags of an item: its comma-separated `tags`, trimmed. */
export function tagsOf(item: PricingItem): string[] {
  return item.tags
    .split(',')
    .map((tag) => tag.trim())
    .filter(Boolean);
}

/**
 * Items whose name, description or tags contain `search` (trimmed, any case), unless ALL_GROUPS
 * served in `group`, and unless ALL_VENDORS made by `vendor` (UNKNOWN_VENDOR: by no known one).
 */
export function filterItems(
  items: readonly PricingItem[],
  search: string,
  group: string,
  vendor: VendorChoice = ALL_VENDORS,
): PricingItem[] {
  const needle = search.trim().toLowerCase();
  const matches = (item: PricingItem) =>
    [item.model_name, item.description, item.tags].some((text) => text.toLowerCase().includes(needle));
  return items.filter(
    (item) =>
      (needle === '' || matches(item)) &&
      (group === ALL_GROUPS || item.enable_groups.includes(group)) &&
      (vendor === ALL_VENDORS || item.vendor_id === vendor),
  );
}
