/**
 * Request and answer shapes of the model catalogue: /api/vendors/* and /api/models/* (admins), as
 * new-api's console calls them. The console imports the `Static` types.
 *
 * Lengths and ranges are the columns' (a longer value is refused as `request.invalid_params`
 * naming the field); what needs the database or a closer look (a taken name, a vendor that does
 * not exist, the icon, the endpoints' JSON) is checked by the routes with its own refusal code.
 */
import { Type, type Static } from '@sinclair/typebox';
import { Envelope, EnvelopeFields, INT32_MAX } from '../http/schemas.js';

/** 1 enabled (shown on the pricing page), 0 disabled (the model is left out of it). */
export const CATALOG_ENABLED = 1;
export const CATALOG_DISABLED = 0;

/** How a model row's `model_name` matches served model names. */
export const NAME_RULE_EXACT = 0;
export const NAME_RULE_PREFIX = 1;
export const NAME_RULE_CONTAINS = 2;
export const NAME_RULE_SUFFIX = 3;

export const NAME_MAX = 128;
export const ICON_MAX = 255;
export const TAGS_MAX = 255;
export const DESCRIPTION_MAX = 10_000;
export const ENDPOINTS_MAX = 10_000;

const Status = Type.Integer({ minimum: CATALOG_DISABLED, maximum: CATALOG_ENABLED });
const Count = Type.Integer({ minimum: 0, maximum: INT32_MAX });

// ---- vendors

export const VendorView = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  description: Type.String(),
  /** An icon name (e.g. `OpenAI`, `Claude.Color`) or an http(s) address; "" for none. */
  icon: Type.String(),
  status: Type.Integer(),
  created_time: Type.Number(),
  updated_time: Type.Number(),
  /** How many model rows name this vendor. */
  model_count: Type.Integer(),
});
export type VendorView = Static<typeof VendorView>;

const VendorFields = {
  name: Type.Optional(Type.String({ maxLength: NAME_MAX })),
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
  icon: Type.Optional(Type.String({ maxLength: ICON_MAX })),
  status: Type.Optional(Status),
};

/** POST /api/vendors/: a name, the rest optional (enabled by default). */
export const CreateVendorBody = Type.Object(VendorFields);
export type CreateVendorBody = Static<typeof CreateVendorBody>;

/** PUT /api/vendors/: the id and the fields to change; absent ones keep their value. */
export const UpdateVendorBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT32_MAX }), ...VendorFields });
export type UpdateVendorBody = Static<typeof UpdateVendorBody>;

export const CatalogPageQuery = Type.Object({
  p: Type.Optional(Type.Integer()),
  page_size: Type.Optional(Type.Integer()),
});
export type CatalogPageQuery = Static<typeof CatalogPageQuery>;

/** `keyword`: part of the name or the description (wildcards taken literally). */
export const VendorSearchQuery = Type.Composite([
  CatalogPageQuery,
  Type.Object({ keyword: Type.Optional(Type.String({ maxLength: 100 })) }),
]);
export type VendorSearchQuery = Static<typeof VendorSearchQuery>;

export const CatalogIdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT32_MAX }) });
export type CatalogIdParams = Static<typeof CatalogIdParams>;

// ---- models

export const BoundChannel = Type.Object({ name: Type.String(), type: Type.Integer() });

export const ModelView = Type.Object({
  id: Type.Integer(),
  model_name: Type.String(),
  description: Type.String(),
  icon: Type.String(),
  /** Comma-separated. */
  tags: Type.String(),
  /** 0: no vendor of its own (the pricing page then names one by the model's name). */
  vendor_id: Type.Integer(),
  /** JSON text: endpoint type → path, or → {path, method}; "" for the channels' own. */
  endpoints: Type.String(),
  context_length: Type.Integer(),
  max_output_tokens: Type.Integer(),
  knowledge_cutoff: Type.String(),
  release_date: Type.String(),
  parameter_count: Type.String(),
  input_modalities: Type.String(),
  output_modalities: Type.String(),
  status: Type.Integer(),
  /** 1: a metadata sync may overwrite the row; 0: the admin's edits are kept. */
  sync_official: Type.Integer(),
  /** 0 exact, 1 prefix, 2 contains, 3 suffix. */
  name_rule: Type.Integer(),
  created_time: Type.Number(),
  updated_time: Type.Number(),
  /** Served models the row matches (with their groups, billing types and channels). */
  matched_models: Type.Array(Type.String()),
  matched_count: Type.Integer(),
  enable_groups: Type.Array(Type.String()),
  quota_types: Type.Array(Type.Integer()),
  bound_channels: Type.Array(BoundChannel),
});
export type ModelView = Static<typeof ModelView>;

const ModelFields = {
  model_name: Type.Optional(Type.String({ maxLength: NAME_MAX })),
  description: Type.Optional(Type.String({ maxLength: DESCRIPTION_MAX })),
  icon: Type.Optional(Type.String({ maxLength: ICON_MAX })),
  tags: Type.Optional(Type.String({ maxLength: TAGS_MAX })),
  vendor_id: Type.Optional(Type.Integer({ minimum: 0, maximum: INT32_MAX })),
  endpoints: Type.Optional(Type.String({ maxLength: ENDPOINTS_MAX })),
  context_length: Type.Optional(Count),
  max_output_tokens: Type.Optional(Count),
  knowledge_cutoff: Type.Optional(Type.String({ maxLength: 32 })),
  release_date: Type.Optional(Type.String({ maxLength: 32 })),
  parameter_count: Type.Optional(Type.String({ maxLength: 32 })),
  input_modalities: Type.Optional(Type.String({ maxLength: 128 })),
  output_modalities: Type.Optional(Type.String({ maxLength: 128 })),
  status: Type.Optional(Status),
  sync_official: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  name_rule: Type.Optional(Type.Integer({ minimum: NAME_RULE_EXACT, maximum: NAME_RULE_SUFFIX })),
};

/** POST /api/models/: a model name, the rest optional (enabled, exact rule, no vendor by default). */
export const CreateModelBody = Type.Object(ModelFields);
export type CreateModelBody = Static<typeof CreateModelBody>;

/**
 * PUT /api/models/: the id and the fields to change; absent ones keep their value. With
 * `?status_only=true` only `status` is taken.
 */
export const UpdateModelBody = Type.Object({ id: Type.Integer({ minimum: 1, maximum: INT32_MAX }), ...ModelFields });
export type UpdateModelBody = Static<typeof UpdateModelBody>;

export const UpdateModelQuery = Type.Object({ status_only: Type.Optional(Type.Boolean()) });
export type UpdateModelQuery = Static<typeof UpdateModelQuery>;

/** List filters new-api's console sends: `status` and `sync_official` (0 or 1). */
const ModelFilters = {
  status: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
  sync_official: Type.Optional(Type.Integer({ minimum: 0, maximum: 1 })),
};

export const ModelPageQuery = Type.Composite([CatalogPageQuery, Type.Object(ModelFilters)]);
export type ModelPageQuery = Static<typeof ModelPageQuery>;

/**
 * `keyword`: part of the model name, description or tags; `vendor`: a vendor id, or part of a
 * vendor's name.
 */
export const ModelSearchQuery = Type.Composite([
  ModelPageQuery,
  Type.Object({
    keyword: Type.Optional(Type.String({ maxLength: 100 })),
    vendor: Type.Optional(Type.String({ maxLength: 100 })),
  }),
]);
export type ModelSearchQuery = Static<typeof ModelSearchQuery>;

const PageFields = { total: Type.Integer(), page: Type.Integer(), page_size: Type.Integer() };

export const VendorPage = Type.Object({ items: Type.Array(VendorView), ...PageFields });
export type VendorPage = Static<typeof VendorPage>;

/** A page of models plus the number of model rows per vendor id (all rows, not this page's). */
export const ModelPage = Type.Object({
  items: Type.Array(ModelView),
  ...PageFields,
  vendor_counts: Type.Record(Type.String(), Type.Integer()),
});
export type ModelPage = Static<typeof ModelPage>;

// ---- syncing from the official catalogue

export const SyncSource = Type.Object({ locale: Type.String(), models_url: Type.String(), vendors_url: Type.String() });

const FieldValue = Type.Union([Type.String(), Type.Number()]);

export const SyncConflict = Type.Object({
  model_name: Type.String(),
  fields: Type.Array(Type.Object({ field: Type.String(), local: FieldValue, upstream: FieldValue })),
});
export type SyncConflict = Static<typeof SyncConflict>;

/**
 * GET /api/models/sync_upstream/preview: the served models without a row that the catalogue
 * knows, and where it differs from rows that allow syncing.
 */
export const SyncPreview = Type.Object({
  missing: Type.Array(Type.String()),
  conflicts: Type.Array(SyncConflict),
  source: SyncSource,
});
export type SyncPreview = Static<typeof SyncPreview>;

export const SyncPreviewQuery = Type.Object({ locale: Type.Optional(Type.String({ maxLength: 16 })) });
export type SyncPreviewQuery = Static<typeof SyncPreviewQuery>;

/** A row's fields to take from the catalogue (description, icon, tags, vendor, name_rule, status …). */
export const SyncOverwrite = Type.Object({
  model_name: Type.String({ maxLength: NAME_MAX }),
  fields: Type.Array(Type.String({ maxLength: 32 }), { maxItems: 32 }),
});
export type SyncOverwrite = Static<typeof SyncOverwrite>;

/** POST /api/models/sync_upstream: creates the missing rows, and overwrites what `overwrite` names. */
export const SyncBody = Type.Object({
  overwrite: Type.Optional(Type.Array(SyncOverwrite, { maxItems: 10_000 })),
  locale: Type.Optional(Type.String({ maxLength: 16 })),
});
export type SyncBody = Static<typeof SyncBody>;

export const SyncResult = Type.Object({
  created_models: Type.Integer(),
  created_vendors: Type.Integer(),
  updated_models: Type.Integer(),
  skipped_models: Type.Array(Type.String()),
  created_list: Type.Array(Type.String()),
  updated_list: Type.Array(Type.String()),
  source: SyncSource,
});
export type SyncResult = Static<typeof SyncResult>;

export const VendorAnswer = Envelope(VendorView);
export const SyncPreviewAnswer = Envelope(SyncPreview);
export const SyncResultAnswer = Envelope(SyncResult);
export const VendorPageAnswer = Envelope(VendorPage);
export const ModelAnswer = Envelope(ModelView);
export const ModelPageAnswer = Envelope(ModelPage);
/** GET /api/models/missing: served model names no model row names exactly. */
export const MissingModelsAnswer = Envelope(Type.Array(Type.String()));
export const EmptyAnswer = Type.Object(EnvelopeFields);
