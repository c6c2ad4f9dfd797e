/**
 * What a resource folder's `index.ts` exports: everything the console needs to know about it,
 * read by the registry (src/resources/registry.ts) for the routes, the dataProvider's endpoints,
 * the sidebar and canAccess. The screen itself (the schema) loads on first visit.
 */
import type { ComponentType } from 'react';
import type { RaRecord } from 'react-admin';
import type { SvgIconComponent } from '@mui/icons-material';
import type { AccessRule } from '../../authProvider/roles';
import type { ResourceEndpoints } from '../../dataProvider/types';
import type { ResourceSchema } from './types';

/** Sections of the sidebar, in order. */
export const MENU_SECTIONS = ['chat_section', 'console_section', 'admin_section', 'personal_section'] as const;
export type MenuSectionKey = (typeof MENU_SECTIONS)[number];

/** Status flags (stored as 'true'/'false') that hide a sidebar entry while off. */
export type FlagKey = 'enable_data_export' | 'enable_drawing' | 'enable_task';

/** One sidebar entry. */
export interface MenuEntry {
  section: MenuSectionKey;
  /** Position in the section (lower first). */
  order: number;
  /** Label key `app.sidebar.<key>`; the resource's or page's name by default. */
  key?: string;
  /** Where it leads; the resource's list or the page by default. */
  path?: string;
  /** A second path that leads to the resource's list (the family's `/newChannel` …). */
  alias?: boolean;
  /** The canAccess action it needs; `menu` by default. */
  action?: string;
  flag?: FlagKey;
  icon?: SvgIconComponent;
}

/** The record-level part of an access check (e.g. nobody acts on the super admin). */
export type RecordAccess = (role: number, action: string, record: NonNullable<AccessRecord>) => boolean | undefined;

export type AccessRecord = { role?: number; id?: unknown; DeletedAt?: string | number | null } | undefined;

/** A module whose default export is the resource's schema (loaded on first visit). */
export type SchemaLoader<R extends RaRecord = RaRecord> = () => Promise<{ default: ResourceSchema<R> }>;

export interface ResourceDefinition<R extends RaRecord = RaRecord, N extends string = string> {
  /** react-admin resource name: route, dataProvider key, i18n namespace, canAccess resource. */
  name: N;
  endpoints: ResourceEndpoints;
  /** Minimum role per action (`list`, `create`, `menu`, custom ones); `*` for the rest. */
  access: AccessRule;
  /** Narrows an allowed action on one record; `undefined` keeps the role rule's answer. */
  recordAccess?: RecordAccess;
  icon: SvgIconComponent;
  menu: MenuEntry[];
  /** The schema, or its module loaded on first visit. */
  schema: ResourceSchema<R> | SchemaLoader<R>;
  recordRepresentation?: string;
}

/**
 * Declares a resource. Its record type stays inside the declaration; the registry holds every
 * resource the same way (the schema's callbacks get their own records at run time).
 */
export function defineResource<R extends RaRecord, const N extends string>(
  definition: ResourceDefinition<R, N>,
): ResourceDefinition<RaRecord, N> {
  return definition as unknown as ResourceDefinition<RaRecord, N>;
}

/** A custom page (login, wallet, settings …) as the registry sees it. */
export interface PageDefinition {
  path: string;
  component: ComponentType;
  /** Needs a logged-in user (and then `access` for the `page` action). */
  guard: boolean;
  /** Without the sidebar (the header and footer still show). */
  bare?: boolean;
  /** canAccess resource of the page and its sidebar entry. */
  name?: string;
  access?: AccessRule;
  icon?: SvgIconComponent;
  menu?: MenuEntry[];
}
