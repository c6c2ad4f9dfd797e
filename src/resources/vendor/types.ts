import type { CreateVendorBody, VendorPage, VendorView } from '../../../server/catalog/schemas';

/** A row of the vendors list, as the server sends it (with its number of model rows). */
export type VendorRecord = VendorView;
export type { CreateVendorBody, VendorPage };

/** 1 enabled, 0 disabled (its models show no vendor on the pricing page). */
export const CATALOG_ENABLED = 1;
export const CATALOG_DISABLED = 0;
