import { SchemaList } from '../schema';
import { userSchema } from './userSchema';

/** /user: the manage-users screen, with its add and edit drawers. */
export default function UserList() {
  return <SchemaList schema={userSchema} />;
}
