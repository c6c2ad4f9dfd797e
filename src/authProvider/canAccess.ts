/**
 * Who may do what in the console: one pure function behind the authProvider (react-admin's access
 * checks, and the screens' through src/authProvider/access.ts), the sidebar and the page guards. The rules
 * are the ones each resource and custom page declares (src/resources/registry.ts,
 * src/customPages/index.ts). The server stays the authority; this only decides what the console offers.
 */
import { customPages } from '../customPages';
import { resources } from '../resources/registry';
import type { RecordAccess } from '../resources/schema/definition';
import type { AccessRequest } from './access';
import { ROLE_ROOT, type AccessRule } from './roles';

export { isAdmin, isRoot, ROLE_ADMIN, ROLE_GUEST, ROLE_ROOT, ROLE_USER } from './roles';

const RULES = new Map<string, AccessRule>();
const RECORD_RULES = new Map<string, RecordAccess>();
for (const resource of resources) {
  RULES.set(resource.name, resource.access);
  if (resource.recordAccess) RECORD_RULES.set(resource.name, resource.recordAccess);
}
for (const page of customPages) {
  if (page.name && page.access) RULES.set(page.name, page.access);
}

/** Whether `role` may do `action` on `resource` (a resource or page without rules is root-only). */
export function canAccess(role: number, { resource, action, record }: AccessRequest): boolean {
  const rules = RULES.get(resource);
  if (!rules) return role >= ROLE_ROOT;
  const needed = rules[action] ?? rules['*'] ?? ROLE_ROOT;
  if (role < needed) return false;
  if (!record) return true;
  return RECORD_RULES.get(resource)?.(role, action, record) ?? true;
}
