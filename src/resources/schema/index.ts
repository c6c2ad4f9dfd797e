/**
 * The schema-driven resource framework: a resource is declared once as a `ResourceSchema` and the
 * generic list (filters, columns, remembered page size), create drawer and edit drawer render
 * from that declaration.
 *
 * How to add a resource (e.g. redemption codes):
 * 1. `src/dataProvider/endpoints.ts`: add an `ENDPOINTS` entry keyed by the resource name, which is
 *    also its route (`redemption` → `/redemption`): the API base path, and a search endpoint,
 *    a page-size query name or a delete call only where the API differs from the common pattern.
 * 2. `src/resources/<plural>/`: a `<singular>Schema.ts(x)` declaring the fields (type, flags
 *    showInList / showInFilter / showInCreate / showInEdit, validation rules with i18n message
 *    keys, choices, permission), a `<Singular>List.tsx` that renders `<SchemaList schema={…} />`,
 *    and an `index.ts` default-exporting `{ list: lazy(() => import('./<Singular>List')), icon,
 *    hasCreate, hasEdit }`. Custom pieces (row actions, extra dialogs, special cells) live in the
 *    same folder and plug into the schema (`rowActions`, `render`, `editAddon`, `transform`).
 * 3. `src/App.tsx`: `<Resource name="redemption" {...redemptions} />`.
 * 4. `src/i18n/zh/<area>.ts` and `src/i18n/en/<area>.ts`: `resources.<i18n>.name`, `.fields.*`,
 *    `.create_title`, `.edit_title`, `.notification.created/updated` and the validation messages —
 *    both locales, same keys (tests/console/i18n.test.ts checks).
 * 5. `src/authProvider/canAccess.ts`: the resource's minimum role per action.
 */
export type {
  Choice,
  ChoiceLoader,
  FieldSchema,
  FieldType,
  FormScope,
  FormValues,
  Mode,
  ResourceSchema,
  ValidationRule,
} from './types';
export { SchemaList, SchemaEditButton } from './SchemaList';
export { DrawerFrame, useCloseDrawer } from './drawers';
export { SchemaCell } from './cells';
export { SchemaInput } from './inputs';
export { useChoices, choiceLabel, clearLoadedChoices } from './choices';
export { validatorsFor } from './validation';
export { useRole, useFormScope } from './access';
export { PAGE_SIZE_KEY, PAGE_SIZES, storedPageSize, RememberedPagination } from './pagination';
export { formatTimestamp } from './format';
