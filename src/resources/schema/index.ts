/**
 * The schema-driven resource framework. A resource is its folder: `index.ts` declares it
 * (`defineResource`: name, endpoints, access rule, menu entries, icon, and its schema module), the
 * schema module declares its fields and slots, and one line in src/resources/registry.ts adds it.
 * The one list (`ResourceList`: filters, columns or cards, column settings, selection, grouped
 * rows) and the one drawer system (create, edit, a read-only detail and action forms over
 * several records) render every resource from that.
 */
export type {
  ActionForm,
  ActionResult,
  Choice,
  ChoiceLoader,
  CreateHelpers,
  CustomCreate,
  FieldSchema,
  FieldType,
  FormScope,
  FormSlots,
  FormValues,
  InputSlotProps,
  ListSlots,
  Mode,
  ResourceSchema,
  ShowSlots,
  ValidationRule,
} from './types';
export { defineResource, type ResourceDefinition, type PageDefinition, type MenuEntry } from './definition';
export { ResourceList } from './ResourceList';
export { SchemaEditButton, SchemaShowButton } from './RowDrawerButton';
export { showPath } from './show';
export { DrawerFrame, useCloseDrawer } from './drawers';
export { ActionFormDrawer } from './actionForm';
export { SchemaCell } from './cells';
export { SchemaInput } from './inputs';
export { useChoices, choiceLabel, clearLoadedChoices } from './choices';
export { validatorsFor } from './validation';
export { useRole, useFormScope } from './access';
export { PAGE_SIZE_KEY, PAGE_SIZES, storedPageSize, RememberedPagination } from './pagination';
export { formatTimestamp } from './format';
