/**
 * /pricing: every model the gateway serves with its vendor, description, tags and price in the
 * chosen group, filtered by group, vendor and a search. Open to anonymous visitors, who see the
 * default group's ratio.
 */
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import Alert from '@mui/material/Alert';
import Chip from '@mui/material/Chip';
import CircularProgress from '@mui/material/CircularProgress';
import InputAdornment from '@mui/material/InputAdornment';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TablePagination from '@mui/material/TablePagination';
import TableRow from '@mui/material/TableRow';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import SearchIcon from '@mui/icons-material/Search';
import { storedUser } from '../../api/client';
import { useGateway } from '../../api/customMethods';
import { errorMessage } from '../shared/errors';
import { ChipFilterRow, ModelCell, VendorCell, VendorFilter } from './PricingParts';
import {
  ALL_GROUPS,
  ALL_VENDORS,
  PAGE_SIZES,
  UNKNOWN_VENDOR,
  callPrice,
  filterItems,
  formatUsd,
  initialGroup,
  inputPrice,
  isPerCall,
  isPerSecond,
  isUnpriced,
  outputPrice,
  ratioColor,
  vendorsListed,
  type PricingAnswer,
  type PricingItem,
  type VendorChoice,
} from './pricing';

const P = 'pricing.';

type State = { kind: 'loading' } | { kind: 'error'; message: string } | { kind: 'ready'; answer: PricingAnswer };

function PriceCell({ item, groupRatio }: { item: PricingItem; groupRatio: number }) {
  const translate = useTranslate();
  if (isPerCall(item)) return <>{translate(`${P}per_call_price`, { price: formatUsd(callPrice(item, groupRatio)) })}</>;
  if (isPerSecond(item)) return <>{translate(`${P}per_second_price`, { price: formatUsd(callPrice(item, groupRatio)) })}</>;
  if (isUnpriced(item))
    return (
      <Typography variant="body2" color="text.secondary">
        {translate(`${P}unset`)}
      </Typography>
    );
  return (
    <Stack spacing={0.25}>
      <span>{translate(`${P}input_price`, { price: formatUsd(inputPrice(item, groupRatio)) })}</span>
      <span>{translate(`${P}output_price`, { price: formatUsd(outputPrice(item, groupRatio)) })}</span>
    </Stack>
  );
}

function RatioCell({ item }: { item: PricingItem }) {
  const translate = useTranslate();
  if (isPerCall(item) || isPerSecond(item) || isUnpriced(item)) return <>—</>;
  return (
    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
      <Chip
        size="small"
        variant="outlined"
        color={ratioColor(item.model_ratio)}
        label={translate(`${P}model_ratio`, { ratio: item.model_ratio })}
      />
      <Chip
        size="small"
        variant="outlined"
        color={ratioColor(item.completion_ratio)}
        label={translate(`${P}completion_ratio`, { ratio: item.completion_ratio })}
      />
    </Stack>
  );
}

export default function PricingPage() {
  const translate = useTranslate();
  const user = storedUser();
  const [search, setSearch] = useState('');
  const [group, setGroup] = useState<string | null>(null);
  const [vendor, setVendor] = useState<VendorChoice>(ALL_VENDORS);
  const [page, setPage] = useState(0);
  const [pageSize, setPageSize] = useState(PAGE_SIZES[0] ?? 10);

  const gateway = useGateway();
  const pricing = useQuery({ queryKey: ['pricing'], queryFn: () => gateway.getPricing(), retry: false });
  const state: State = pricing.data
    ? { kind: 'ready', answer: pricing.data }
    : pricing.error
      ? { kind: 'error', message: errorMessage(pricing.error) }
      : { kind: 'loading' };

  const answer = state.kind === 'ready' ? state.answer : null;
  const ownGroup = answer ? initialGroup(answer, user?.group) : 'default';
  const selected = group ?? ALL_GROUPS;
  // Prices follow the chosen group, or the person's own one when every group is listed.
  const priceGroup = selected === ALL_GROUPS ? ownGroup : selected;
  const groupRatio = answer?.group_ratio[priceGroup] ?? 1;
  const rows = useMemo(
    () => (answer ? filterItems(answer.data, search, selected, vendor) : []),
    [answer, search, selected, vendor],
  );
  const shown = rows.slice(page * pageSize, page * pageSize + pageSize);

  if (state.kind === 'loading') {
    return (
      <Stack alignItems="center" sx={{ p: 6 }}>
        <CircularProgress aria-label={translate(`${P}loading`)} />
      </Stack>
    );
  }
  if (state.kind === 'error') return <Alert severity="error">{translate(state.message, { _: state.message })}</Alert>;

  const groups = Object.entries(state.answer.usable_group);
  const chooseGroup = (next: string) => {
    setGroup(next);
    setPage(0);
  };
  const chooseVendor = (next: VendorChoice) => {
    setVendor(next);
    setPage(0);
  };

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 } }}>
      <Typography variant="h5" component="h1">
        {translate(`${P}title`)}
      </Typography>
      <Alert severity="info">
        {user
          ? translate(`${P}your_group`, { group: ownGroup, ratio: state.answer.group_ratio[ownGroup] ?? 1 })
          : translate(`${P}anonymous`, { ratio: state.answer.group_ratio[ownGroup] ?? 1 })}
        <br />
        {translate(`${P}formula`)}
      </Alert>
      <Paper sx={{ p: 2 }}>
        <Stack spacing={2}>
          <ChipFilterRow
            label={translate(`${P}groups`)}
            options={[
              { key: 'all', label: translate(`${P}all_groups`), value: ALL_GROUPS },
              ...groups.map(([name, info]) => ({
                key: name,
                label: translate(`${P}group_label`, { group: name, desc: info.desc, ratio: info.ratio }),
                value: name,
                color: ratioColor(info.ratio),
              })),
            ]}
            selected={selected}
            onChoose={chooseGroup}
          />
          <VendorFilter
            vendors={vendorsListed(state.answer)}
            hasUnknown={state.answer.data.some((item) => item.vendor_id === UNKNOWN_VENDOR)}
            selected={vendor}
            onChoose={chooseVendor}
          />
          <TextField
            size="small"
            label={translate(`${P}search`)}
            value={search}
            onChange={(e) => {
              setSearch(e.target.value);
              setPage(0);
            }}
            sx={{ maxWidth: 360 }}
            slotProps={{
              input: {
                startAdornment: (
                  <InputAdornment position="start">
                    <SearchIcon fontSize="small" />
                  </InputAdornment>
                ),
              },
            }}
          />
        </Stack>
      </Paper>
      <Paper>
        <TableContainer>
          <Table size="small" aria-label={translate(`${P}title`)}>
            <TableHead>
              <TableRow>
                <TableCell>{translate(`${P}col.model`)}</TableCell>
                <TableCell>{translate(`${P}col.vendor`)}</TableCell>
                <TableCell>{translate(`${P}col.type`)}</TableCell>
                <TableCell>{translate(`${P}col.groups`)}</TableCell>
                <TableCell>{translate(`${P}col.ratio`)}</TableCell>
                <TableCell>{translate(`${P}col.price`, { group: priceGroup, ratio: groupRatio })}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {shown.map((item) => (
                <TableRow key={item.model_name} hover>
                  <TableCell>
                    <ModelCell item={item} />
                  </TableCell>
                  <TableCell>
                    <VendorCell vendors={state.answer.vendors} item={item} />
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={isPerCall(item) || isPerSecond(item) ? 'secondary' : 'default'}
                      label={translate(`${P}${isPerSecond(item) ? 'per_second' : isPerCall(item) ? 'per_call' : 'per_token'}`)}
                    />
                  </TableCell>
                  <TableCell>
                    <Stack direction="row" spacing={0.5} flexWrap="wrap" useFlexGap>
                      {item.enable_groups.map((g) => (
                        <Chip key={g} size="small" variant="outlined" label={g} />
                      ))}
                    </Stack>
                  </TableCell>
                  <TableCell>
                    <RatioCell item={item} />
                  </TableCell>
                  <TableCell>
                    <PriceCell item={item} groupRatio={groupRatio} />
                  </TableCell>
                </TableRow>
              ))}
              {shown.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6} align="center">
                    {translate(`${P}empty`)}
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </TableContainer>
        <TablePagination
          component="div"
          count={rows.length}
          page={page}
          onPageChange={(_event, next) => setPage(next)}
          rowsPerPage={pageSize}
          rowsPerPageOptions={PAGE_SIZES}
          onRowsPerPageChange={(e) => {
            setPageSize(Number(e.target.value));
            setPage(0);
          }}
          labelRowsPerPage={translate(`${P}page_size`)}
          labelDisplayedRows={({ from, to, count }) => translate(`${P}displayed_rows`, { from, to, count })}
        />
      </Paper>
    </Stack>
  );
}
