/**
 * The pricing table shared by the visual editor and the unset-models list: a checkbox per model,
 * the fixed price, model ratio and completion ratio typed in place (ratios disabled while a fixed
 * price is set), the derived USD per 1M tokens, and edit / delete actions. Pages by 10.
 */
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import Checkbox from '@mui/material/Checkbox';
import IconButton from '@mui/material/IconButton';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Tooltip from '@mui/material/Tooltip';
import DeleteIcon from '@mui/icons-material/Delete';
import EditIcon from '@mui/icons-material/Edit';
import { builtInCompletionRatio } from '../../../../server/options/default-prices';
import { displayPrices, modeOf, type PricingRow } from './pricing';

type Cell = 'price' | 'ratio' | 'completionRatio';
const CELLS: readonly Cell[] = ['price', 'ratio', 'completionRatio'];
const PAGE_SIZES = [10, 20, 50, 100];

interface Props {
  rows: readonly PricingRow[];
  selected: ReadonlySet<string>;
  onSelect(names: readonly string[], checked: boolean): void;
  onCell(name: string, field: Cell, value: string): void;
  onEdit(row: PricingRow): void;
  onDelete?(row: PricingRow): void;
  /** Fixed at 10 rows a page unless the person may choose (10, 20, 50, 100). */
  choosePageSize?: boolean;
}

const usd = (value: number | undefined): string => (value === undefined ? '—' : `$${value}`);

export function PricingTable({ rows, selected, onSelect, onCell, onEdit, onDelete, choosePageSize }: Props) {
  const translate = useTranslate();
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(10);
  const lastPage = Math.max(0, Math.ceil(rows.length / pageSize) - 1);
  useEffect(() => {
    if (page > lastPage) setPage(lastPage);
  }, [page, lastPage]);
  const shown = rows.slice(page * pageSize, page * pageSize + pageSize);
  const shownNames = shown.map((row) => row.name);
  const allShown = shown.length > 0 && shownNames.every((name) => selected.has(name));
  const someShown = shownNames.some((name) => selected.has(name));
  const t = (key: string, args?: Record<string, string | number>) => translate(`settings_operation.pricing.${key}`, args);

  return (
    <>
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell padding="checkbox">
                <Checkbox
                  checked={allShown}
                  indeterminate={someShown && !allShown}
                  onChange={(e) => onSelect(shownNames, e.target.checked)}
                  slotProps={{ input: { 'aria-label': t('select_page') } }}
                />
              </TableCell>
              <TableCell>{t('columns.name')}</TableCell>
              {CELLS.map((cell) => (
                <TableCell key={cell}>{t(`columns.${cell}`)}</TableCell>
              ))}
              <TableCell>{t('columns.token_price')}</TableCell>
              <TableCell>{t('columns.completion_token_price')}</TableCell>
              <TableCell>{t('columns.actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {shown.length === 0 && (
              <TableRow>
                <TableCell colSpan={8} align="center">
                  {t('empty')}
                </TableCell>
              </TableRow>
            )}
            {shown.map((row) => {
              const perRequest = modeOf(row) === 'per_request';
              const prices = displayPrices(row);
              return (
                <TableRow key={row.name} hover>
                  <TableCell padding="checkbox">
                    <Checkbox
                      checked={selected.has(row.name)}
                      onChange={(e) => onSelect([row.name], e.target.checked)}
                      slotProps={{ input: { 'aria-label': t('select_row', { model: row.name }) } }}
                    />
                  </TableCell>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{row.name}</TableCell>
                  {CELLS.map((cell) => (
                    <TableCell key={cell}>
                      <TextField
                        size="small"
                        value={row[cell]}
                        disabled={perRequest && cell !== 'price'}
                        onChange={(e) => onCell(row.name, cell, e.target.value)}
                        // An empty completion ratio is billed at the model family's built-in one: show it.
                        placeholder={cell === 'completionRatio' ? String(builtInCompletionRatio(row.name)) : undefined}
                        title={
                          cell === 'completionRatio' && row[cell] === ''
                            ? t('builtin_completion_ratio', { value: builtInCompletionRatio(row.name) })
                            : undefined
                        }
                        slotProps={{
                          htmlInput: {
                            inputMode: 'decimal',
                            'aria-label': t('cell_label', { model: row.name, field: t(`columns.${cell}`) }),
                          },
                        }}
                        sx={{ width: 110 }}
                      />
                    </TableCell>
                  ))}
                  <TableCell>{usd(prices.tokenPrice)}</TableCell>
                  <TableCell>{usd(prices.completionTokenPrice)}</TableCell>
                  <TableCell sx={{ whiteSpace: 'nowrap' }}>
                    <Tooltip title={t('edit')}>
                      <IconButton size="small" aria-label={t('edit_model', { model: row.name })} onClick={() => onEdit(row)}>
                        <EditIcon fontSize="small" />
                      </IconButton>
                    </Tooltip>
                    {onDelete && (
                      <Tooltip title={t('delete')}>
                        <IconButton
                          size="small"
                          aria-label={t('delete_model', { model: row.name })}
                          onClick={() => onDelete(row)}
                        >
                          <DeleteIcon fontSize="small" />
                        </IconButton>
                      </Tooltip>
                    )}
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </TableContainer>
      <TablePagination
        component="div"
        count={rows.length}
        page={Math.min(page, lastPage)}
        rowsPerPage={pageSize}
        rowsPerPageOptions={choosePageSize ? PAGE_SIZES : []}
        onPageChange={(_e, next) => setPage(next)}
        onRowsPerPageChange={(e) => {
          setPageSize(Number(e.target.value));
          setPage(0);
        }}
        labelRowsPerPage={translate('ra.navigation.page_rows_per_page')}
        labelDisplayedRows={({ from, to, count }) =>
          translate('ra.navigation.page_range_info', { offsetBegin: from, offsetEnd: to, total: count })
        }
        getItemAriaLabel={(type) => translate(`ra.navigation.${type}`)}
      />
    </>
  );
}
