import type { CreateModelBody, ModelPage, ModelView } from '../../../server/catalog/schemas';
import type { VendorPage } from '../../../server/catalog/schemas';

/** A row of the model metadata list, as the server sends it (with the served models it matches). */
export type ModelRecord = ModelView;
export type { CreateModelBody, ModelPage, VendorPage };

/** How `model_name` matches served model names. */
export const NAME_RULES = ['exact', 'prefix', 'contains', 'suffix'] as const;
