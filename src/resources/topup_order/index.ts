import ReceiptLongIcon from '@mui/icons-material/ReceiptLong';
import type { TopUpView } from '../../../server/topup/schemas';
import { ROLE_ADMIN } from '../../authProvider/roles';
import { defineResource } from '../schema/definition';

/** Online top-up orders of every user (`/topup_order`), admins only; read-only, searchable by order number. */
export default defineResource<TopUpView, 'topup_order'>({
  name: 'topup_order',
  endpoints: { base: '/api/user/topup/' },
  access: { '*': ROLE_ADMIN },
  icon: ReceiptLongIcon,
  menu: [{ section: 'admin_section', order: 65 }],
  schema: () => import('./schema'),
  recordRepresentation: 'trade_no',
});
