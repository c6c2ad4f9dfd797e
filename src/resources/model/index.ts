import ViewInArIcon from '@mui/icons-material/ViewInAr';
import { ROLE_ADMIN } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';
import type { ModelRecord } from './types';

/**
 * Model metadata (`/model`), admins only: description, tags, icon and vendor of the models the
 * pricing page lists; a keyword or vendor switches to `/api/models/search`.
 */
export default defineResource<ModelRecord, 'model'>({
  name: 'model',
  endpoints: {
    base: '/api/models/',
    search: { path: '/api/models/search', params: ['keyword', 'vendor'] },
  },
  access: { '*': ROLE_ADMIN },
  icon: ViewInArIcon,
  menu: [{ section: 'admin_section', order: 55 }],
  schema: () => import('./schema'),
  recordRepresentation: 'model_name',
});
