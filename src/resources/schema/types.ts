import type { ComponentType, ReactNode } from 'react';
import type { Identifier, RaRecord } from 'react-admin';
import type { SxProps } from '@mui/material';
import type { GatewayDataProvider } from '../../api/customMethods';

/** How a field is shown in the list and edited in the forms. */
export type FieldType = 'id' | 'text' | 'password' | 'number' | 'select' | 'boolean' | 'quota' | 'date' | 'virtual';

/** A choice of a select field; `name` is an i18n key (static choices) or the literal text. */
export interface Choice {
  id: string | number;
  name: string;
}

/**
 * Choices fetched from the server once and cached under `key` (e.g. the group list). A loader
 * keyed by a resource's name (its records as choices) is loaded again after any write to that
 * resource through the dataProvider.
 */
export interface ChoiceLoader {
  key: string;
  /** Reads the choices through the dataProvider (its lists and custom methods). */
  load: (gateway: GatewayDataProvider) => Promise<Choice[]>;
}

export type Mode = 'create' | 'edit';

/** What a create or edit form holds: the record's fields plus write-only ones like a password. */
export type FormValues = Record<string, unknown>;

/**
 * A validation rule; `message` is an i18n key of the message shown. `custom` refuses a value
 * `test` answers false for (a JSON text, an address …).
 */
export interface ValidationRule {
  kind: 'required' | 'minLength' | 'maxLength' | 'min' | 'max' | 'integer' | 'pattern' | 'custom';
  value?: number | RegExp;
  test?: (value: unknown) => boolean;
  message: string;
  /** Only in this form; both when absent. */
  on?: Mode;
}

/** What a field's visibility rules may look at. */
export interface FormScope<R> {
  record: R | undefined;
  /** The logged-in person's user id. */
  identityId: Identifier | undefined;
  role: number;
}

/** What a custom input gets: its field, label key and where it is used. */
export interface InputSlotProps {
  field: FieldSchema;
  /** react-admin's filter form reads `source` and `alwaysOn` from the element's props. */
  source: string;
  label: string;
  mode: Mode | 'filter';
  readOnly?: boolean;
  alwaysOn?: boolean;
}

export interface FieldSchema<R extends RaRecord = RaRecord> {
  /** Record property (or filter name, or a column name for `virtual` columns). */
  source: string;
  type: FieldType;
  /** i18n key; defaults to `resources.<name>.fields.<source>`. */
  label?: string;
  showInList?: boolean;
  /**
   * A filter over the list. Filters with `alwaysOn` sit in the compact row; the others open with
   * "more filters". A filter may have its own label and input (a column's header and its
   * filter's label often differ).
   */
  showInFilter?: boolean | { alwaysOn?: boolean; label?: string; input?: ComponentType<InputSlotProps> };
  showInCreate?: boolean;
  /** `'readonly'` shows the value in the edit form without letting it change. */
  showInEdit?: boolean | 'readonly';
  /** Narrows `showInEdit` to some records or people (e.g. not one's own group). */
  editWhen?: (scope: FormScope<R>) => boolean;
  validate?: ValidationRule[];
  choices?: Choice[] | ChoiceLoader;
  /** Label key for a value outside `choices`. */
  unknownChoice?: string;
  /** canAccess action the person needs for the field to show at all (column, filter and input). */
  permission?: string;
  /** Replaces the default list cell. */
  render?: (record: R) => ReactNode;
  /** Replaces the default input in the forms (a filter's own is in `showInFilter`). */
  input?: ComponentType<InputSlotProps>;
  /** i18n key of a heading shown before this input in the forms. */
  section?: string;
  /** i18n key of a hint under the input (replaced by its error while there is one). */
  hint?: string;
  /** Rendered after the input in the edit form (e.g. an add-quota button). */
  editAddon?: ComponentType;
  /** Default value in the create form. */
  defaultValue?: unknown;
  /** A text field edited over several lines in the forms (a description, a JSON object). */
  multiline?: boolean;
  /** Column layout: keep the cell on one line, or cap its width (long text wraps inside). */
  column?: { nowrap?: boolean; maxWidth?: number };
}

/** Helpers a custom create gets: close the drawer (back to the list) and reload the list. */
export interface CreateHelpers {
  close: () => void;
  refresh: () => void;
}

/** A custom create: what saving does, and anything to show afterwards (e.g. the codes made). */
export interface CustomCreate {
  submit: (values: FormValues, helpers: CreateHelpers) => Promise<void>;
  after?: ReactNode;
}

/** What differs in a resource's drawers; the inputs come from the fields either way. */
export interface FormSlots {
  /** Drawer width on a wide screen (500 px by default). */
  width?: number;
  /** The inputs' order (by source) when it differs from the columns'; unnamed ones follow. */
  order?: string[];
  /** Values a new record's form starts from (besides each field's `defaultValue`). */
  defaults?: () => FormValues;
  /** The edit form's values from the loaded record (e.g. JSON fields as text). */
  toFormValues?: (record: RaRecord) => FormValues;
  /**
   * Whole-form validation: field → i18n key of its message. react-admin then runs this instead of
   * the fields' own `validate` rules: a rule on one field belongs there (a `custom` one if need be).
   */
  validate?: (values: FormValues, mode: Mode) => Record<string, string>;
  /** Asks before saving when it answers a confirmation (title and content keys). */
  confirm?: (values: FormValues) => { title: string; content: string } | null;
  /** Replaces react-admin's create (a batch, one request making many …). */
  useCreate?: () => CustomCreate;
  /** A failed save: the resource shows it itself instead of react-admin's notification. */
  onError?: (error: unknown, notify: (message: string) => void) => void;
  /** Notification keys; `resources.<name>.notification.created/updated` by default. */
  messages?: Partial<Record<Mode, string>>;
}

/** What differs in a resource's list screen; columns, filters and cards come from the fields. */
export interface ListSlots<R extends RaRecord = RaRecord> {
  /** Wraps the whole screen: where a resource keeps state its other slots share. */
  provider?: ComponentType<{ children: ReactNode }>;
  /** Above the list (a warning, a banner). */
  header?: ComponentType;
  /** Between the toolbar and the rows (summary figures, switches). */
  summary?: ComponentType;
  /** Buttons of the top toolbar besides create and column settings. */
  actions?: ComponentType;
  /** Filter values sent with every call, from the screen's own switches. */
  usePermanentFilter?: () => Record<string, unknown>;
  /** The filter values a visit opens with, computed once per visit. */
  filterDefaults?: () => Record<string, unknown>;
  /**
   * `submit`: filters apply with Query (after `validateFilter`, which answers an i18n key to
   * refuse) and clear with Reset; `live` (default): they apply as they are typed.
   */
  filterMode?: 'live' | 'submit';
  validateFilter?: (values: Record<string, string>) => string | undefined;
  /** Row selection: when it is on (a hook, so a switch can turn it on), which rows, and whether the count bar shows. */
  selection?: { useEnabled?: () => boolean; isSelectable?: (record: R) => boolean; bar?: boolean };
  /**
   * Tag-grouped rows, when on: `fold` turns the page's records (the server answers them flat) into
   * group rows, and a group row's records (`childrenOf`) show under it with the same columns.
   */
  groups?: { useEnabled?: () => boolean; fold?: (records: R[]) => R[]; childrenOf: (record: R) => R[] | undefined };
  /** Column settings, remembered in localStorage under this key. */
  columnSettings?: string;
  /** A right-click on a row (or a long press on a card). */
  useContextMenu?: () => (record: R) => void;
  /** The create drawer's path segment besides `create` (channels answer `/channel/add` too). */
  createAlias?: string;
}

/**
 * What saving an action form did: `done` closes the drawer with a success notice; otherwise the
 * notice (e.g. "nothing changed") shows and the form stays open.
 */
export interface ActionResult {
  done: boolean;
  message: string;
  args?: Record<string, unknown>;
}

/**
 * A form besides create and edit, over a subject that is not one record (a tag's channels, the
 * selected rows): its fields, starting values and what saving does. The drawer, inputs, hints,
 * validation messages and notices are the generic ones; `showInEdit: 'readonly'` shows a field
 * without letting it change.
 */
export interface ActionForm<S> {
  /** i18n key of the drawer's title, filled from the subject. */
  title: string;
  titleArgs?: (subject: S) => Record<string, unknown>;
  fields: FieldSchema[];
  initial: (subject: S) => FormValues;
  /** Whole-form validation: field → i18n key of its message. */
  validate?: (values: FormValues) => Record<string, string>;
  /** i18n key of the submit button; react-admin's "save" by default. */
  submitLabel?: string;
  /**
   * Sends the values through the dataProvider's custom methods (`gateway`); a thrown error shows as
   * an error notice and keeps the form open.
   */
  submit: (values: FormValues, subject: S, initial: FormValues, gateway: GatewayDataProvider) => Promise<ActionResult>;
}

/** A read-only detail drawer at `/<name>/show/<id>`: the record fetched by id, shown by `body`. */
export interface ShowSlots {
  /** Rendered inside the record's context (react-admin's `useRecordContext`). */
  body: ComponentType;
  /** Drawer width on a wide screen (500 px by default). */
  width?: number;
}

export interface ResourceSchema<R extends RaRecord = RaRecord> {
  /** react-admin resource name: the route (`/user`), the dataProvider's key, the i18n namespace. */
  name: string;
  fields: FieldSchema<R>[];
  canCreate?: boolean;
  canEdit?: boolean;
  /** Buttons of each row (table) or card (phone); the row is the record context. */
  rowActions?: ComponentType;
  rowSx?: (record: R) => SxProps;
  /** Shapes the form values into what the API expects before saving. */
  transform?: Partial<Record<Mode, (data: FormValues) => FormValues>>;
  list?: ListSlots<R>;
  form?: FormSlots;
  /** A detail drawer; rows open it when clicked, `SchemaShowButton` from a row action. */
  show?: ShowSlots;
}
