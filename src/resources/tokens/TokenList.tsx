import { Alert } from '@mui/material';
import { useTranslate } from 'react-admin';
import type { SelectedReader } from '../shared/CopySelectedButton';
import { SelectableSchemaList } from '../shared/SelectableSchemaList';
import { revealKeys } from './keys';
import { TokenCreateDrawer, TokenEditDrawer } from './TokenDrawers';
import { TokenRowActions } from './TokenRowActions';
import { tokenSchema } from './tokenSchema';
import type { TokenRecord } from './types';

/** The full keys of the selected tokens (the list only has masked ones). */
const selectedKeys: SelectedReader<TokenRecord> = (selectedIds) => revealKeys(selectedIds.map(Number));

/**
 * /token: the person's API tokens, under a warning, with row selection and an always-visible
 * "copy selected" (the full keys, one a line) and its own drawers.
 */
export default function TokenList() {
  const translate = useTranslate();
  return (
    <>
      <Alert severity="warning" sx={{ mt: 2 }}>
        {translate('resources.tokens.warning')}
      </Alert>
      <SelectableSchemaList schema={tokenSchema} readSelected={selectedKeys} rowActions={TokenRowActions}>
        <TokenCreateDrawer />
        <TokenEditDrawer />
      </SelectableSchemaList>
    </>
  );
}
