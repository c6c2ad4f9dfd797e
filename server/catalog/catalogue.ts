/**
 * What the pricing page says about each served model besides its price: description, icon, tags
 * and vendor, from the model rows (matched by their name rules) and the vendors, or from the
 * built-in vendor prefixes when no row names a vendor.
 */
import type { ModelMeta, Vendor } from '../db/types.js';
import { DEFAULT_VENDORS, defaultVendorId, defaultVendorIndex } from './default-vendors.js';
import { RowMatcher } from './name-rules.js';
import { CATALOG_ENABLED } from './schemas.js';

/** A vendor as the pricing answer lists it (new-api's shape). */
export interface PricingVendor {
  id: number;
  name: string;
  description: string;
  icon: string;
}

export interface ModelInfo {
  description: string;
  icon: string;
  tags: string;
  /** 0: unknown; negative: a built-in vendor. */
  vendor_id: number;
}

export interface Snapshot {
  matcher: RowMatcher;
  vendorsById: Map<number, Vendor>;
  /** By lower-case name: an admin's vendor stands in for the built-in one of that name. */
  vendorsByName: Map<string, Vendor>;
}

export function makeSnapshot(models: readonly ModelMeta[], vendors: readonly Vendor[]): Snapshot {
  return {
    matcher: new RowMatcher(models),
    vendorsById: new Map(vendors.map((v) => [v.id, v])),
    vendorsByName: new Map(vendors.map((v) => [v.name.toLowerCase(), v])),
  };
}

function listed(vendor: Vendor): PricingVendor {
  return { id: vendor.id, name: vendor.name, description: vendor.description ?? '', icon: vendor.icon };
}

/** The vendor of a model without one of its own: the built-in one its name suggests, or none. */
function defaultVendor(snapshot: Snapshot, modelName: string): PricingVendor | null {
  const index = defaultVendorIndex(modelName);
  const builtIn = index === undefined ? undefined : DEFAULT_VENDORS[index];
  if (index === undefined || !builtIn) return null;
  const own = snapshot.vendorsByName.get(builtIn.name.toLowerCase());
  // The admin's vendor of that name, unless they turned it off.
  if (own) return own.status === CATALOG_ENABLED ? listed(own) : null;
  return { id: defaultVendorId(index), name: builtIn.name, description: '', icon: builtIn.icon };
}

function vendorOf(snapshot: Snapshot, row: ModelMeta | undefined, modelName: string): PricingVendor | null {
  if (row && row.vendor_id > 0) {
    const vendor = snapshot.vendorsById.get(row.vendor_id);
    if (vendor) return vendor.status === CATALOG_ENABLED ? listed(vendor) : null;
  }
  return defaultVendor(snapshot, modelName);
}

/**
 * The metadata of each model name, and the vendors they name (sorted by name). A model whose row
 * is disabled is left out of the map: the pricing page does not list it.
 */
export function describeModels(
  snapshot: Snapshot,
  names: readonly string[],
): { info: Map<string, ModelInfo>; vendors: PricingVendor[] } {
  const info = new Map<string, ModelInfo>();
  const vendors = new Map<number, PricingVendor>();
  for (const name of names) {
    const row = snapshot.matcher.rowFor(name);
    if (row && row.status !== CATALOG_ENABLED) continue;
    const vendor = vendorOf(snapshot, row, name);
    if (vendor) vendors.set(vendor.id, vendor);
    info.set(name, {
      description: row?.description ?? '',
      icon: row?.icon ?? '',
      tags: row?.tags ?? '',
      vendor_id: vendor?.id ?? 0,
    });
  }
  return { info, vendors: [...vendors.values()].sort((a, b) => a.name.localeCompare(b.name)) };
}
