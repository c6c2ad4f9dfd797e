import type { ComponentType, ReactNode } from 'react';
import type { Identifier, RaRecord } from 'react-admin';
import type { SxProps } from '@mui/material';

/** How a field is shown in the list and edited in the forms. */
export type FieldType = 'id' | 'text' | 'password' | 'number' | 'select' | 'boolean' | 'quota' | 'date' | 'virtual';

/** A choice of a select field; `name` is an i18n key (static choices) or the literal text. */
export interface Choice {
  id: string | number;
  name: string;
}

/** Choices fetched from the server once and cached under `key` (e.g. the group list). */
export interface ChoiceLoader {
  key: string;
  load: () => Promise<Choice[]>;
}

export type Mode = 'create' | 'edit';

/** What a create or edit form holds: the record's fields plus write-only ones like a password. */
export type FormValues = Record<string, unknown>;

/** A validation rule; `message` is an i18n key carrying the spec's wording. */
export interface ValidationRule {
  kind: 'required' | 'minLength' | 'maxLength' | 'min' | 'max' | 'integer' | 'pattern';
  value?: number | RegExp;
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

export interface FieldSchema<R extends RaRecord = RaRecord> {
  /** Record property (or filter name, or a column name for `virtual` columns). */
  source: string;
  type: FieldType;
  /** i18n key; defaults to `resources.<i18n>.fields.<source>`. */
  label?: string;
  showInList?: boolean;
  /** A filter input over the list; `alwaysOn` keeps it visible. */
  showInFilter?: boolean | { alwaysOn?: boolean };
  showInCreate?: boolean;
  /** `'readonly'` shows the value in the edit form without letting it change. */
  showInEdit?: boolean | 'readonly';
  /** Narrows `showInEdit` to some records or people (e.g. not one's own group). */
  editWhen?: (scope: FormScope<R>) => boolean;
  validate?: ValidationRule[];
  choices?: Choice[] | ChoiceLoader;
  /** Label key for a value outside `choices`. */
  unknownChoice?: string;
  /** canAccess action the person needs for the field to show at all. */
  permission?: string;
  /** Replaces the default list cell. */
  render?: (record: R) => ReactNode;
  /** Rendered after the input in the edit form (e.g. an add-quota button). */
  editAddon?: ComponentType;
  /** Default value in the create form. */
  defaultValue?: unknown;
}

export interface ResourceSchema<R extends RaRecord = RaRecord> {
  /** react-admin resource name: also the route (`/user`) and the dataProvider table key. */
  name: string;
  /** Translation namespace: `resources.<i18n>.name`, `.fields.*`, `.notification.*`. */
  i18n: string;
  fields: FieldSchema<R>[];
  canCreate?: boolean;
  canEdit?: boolean;
  /** Buttons in the last column of each row; the row is the record context. */
  rowActions?: ComponentType;
  rowSx?: (record: R, index: number) => SxProps;
  /** Shapes the form values into what the API expects before saving. */
  transform?: Partial<Record<Mode, (data: FormValues) => FormValues>>;
}
