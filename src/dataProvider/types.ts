import type { Identifier } from 'react-admin';

/**
 * How one resource maps onto the gateway's API. Everything not set here follows the common
 * pattern: GET `{base}?p&page_size` → `{items,total}`, GET `{base}{id}`, POST `{base}` to create,
 * PUT `{base}` with the id in the body to update, DELETE `{base}{id}/` to delete.
 */
export interface ResourceEndpoints {
  /** Collection path with its trailing slash, e.g. `/api/user/` (a getter may pick it per role). */
  readonly base: string;
  /** Used for getList instead of `base` as soon as one of `params` has a value in the filter. */
  search?: { path: string; params: readonly string[] };
  /** Query name of the page size (`page_size` unless the endpoint says otherwise). */
  pageSizeParam?: string;
  /** Overrides the DELETE call of one record. */
  remove?: (id: Identifier) => { method: 'DELETE' | 'POST'; path: string; body?: unknown };
  /** POST `{id, action}` for row actions (promote, disable …); answers the changed fields. */
  manage?: string;
  /**
   * The family's wrapped records (`{plan: {...}}`): the key each record sits under in answers and
   * is sent under; such resources update by PUT `{base}{id}`.
   */
  wrap?: string;
}

/**
 * Row actions (promote, disable …) are updates with `meta: { manage: action }`: they POST
 * `{id, action}` to the resource's manage endpoint, and the fields it answers (status, role) are
 * merged into the record, so react-admin's cache updates the row like after any update.
 */
export interface ManageMeta {
  manage: string;
}
