import { useGetIdentity, usePermissions, type RaRecord } from 'react-admin';
import type { AccessPolicy } from '../../authProvider/access';
import type { FieldSchema, FormScope, Mode, ResourceSchema } from './types';

/** The logged-in person's role (0 while unknown) from the authProvider's permissions. */
export function useRole(): number {
  const { permissions } = usePermissions<number>();
  return typeof permissions === 'number' ? permissions : 0;
}

/** Who is filling the form in; `pending` until the identity is known (fields may depend on it). */
export function useFormScope<R extends RaRecord>(record: R | undefined): FormScope<R> & { pending: boolean } {
  const role = useRole();
  const { identity, isPending } = useGetIdentity();
  return { record, identityId: identity?.id, role, pending: isPending };
}

function permitted(schema: ResourceSchema, field: FieldSchema, role: number, may: AccessPolicy): boolean {
  return !field.permission || may(role, { resource: schema.name, action: field.permission });
}

export function listFields(schema: ResourceSchema, role: number, may: AccessPolicy): FieldSchema[] {
  return schema.fields.filter((f) => f.showInList && permitted(schema, f, role, may));
}

export function filterFields(schema: ResourceSchema, role: number, may: AccessPolicy): FieldSchema[] {
  return schema.fields.filter((f) => f.showInFilter && permitted(schema, f, role, may));
}

export interface FormField {
  field: FieldSchema;
  readOnly: boolean;
}

/** The fields in the form's order: those `form.order` names first, the rest as declared. */
function ordered(schema: ResourceSchema): FieldSchema[] {
  const order = schema.form?.order ?? [];
  const rank = (field: FieldSchema) => {
    const at = order.indexOf(field.source);
    return at === -1 ? order.length : at;
  };
  return [...schema.fields].sort((a, b) => rank(a) - rank(b));
}

/** The inputs of the create or edit form for this record and person. */
export function formFields(schema: ResourceSchema, mode: Mode, scope: FormScope<RaRecord>, may: AccessPolicy): FormField[] {
  const out: FormField[] = [];
  for (const field of ordered(schema)) {
    if (!permitted(schema, field, scope.role, may)) continue;
    if (mode === 'create') {
      if (field.showInCreate) out.push({ field, readOnly: false });
      continue;
    }
    if (!field.showInEdit) continue;
    if (field.editWhen && !field.editWhen(scope)) continue;
    out.push({ field, readOnly: field.showInEdit === 'readonly' });
  }
  return out;
}
