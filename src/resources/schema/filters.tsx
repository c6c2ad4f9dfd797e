/**
 * The filters of a list in one compact row: the `alwaysOn` ones inline, the rest behind "more
 * filters". Live filters apply as they are typed; `submit` filters apply with Query (after the
 * resource's check) and clear with Reset. Values are trimmed before they are sent.
 */
import { useState, type ReactNode } from 'react';
import { Badge, Box, Button, Stack } from '@mui/material';
import FilterListIcon from '@mui/icons-material/FilterList';
import SearchIcon from '@mui/icons-material/Search';
import { FilterLiveForm, useListContext, useNotify, useTranslate } from 'react-admin';
import { FormProvider, useForm } from 'react-hook-form';
import { useAccessPolicy } from '../../authProvider/access';
import { filterFields } from './access';
import { SchemaInput } from './inputs';
import type { FieldSchema, ResourceSchema } from './types';

const alwaysOn = (field: FieldSchema) => typeof field.showInFilter === 'object' && !!field.showInFilter.alwaysOn;

function trimmed(values: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text !== '') out[key] = text;
  }
  return out;
}

function Inputs({ schema, fields }: { schema: ResourceSchema; fields: FieldSchema[] }) {
  return (
    <>
      {fields.map((field) => (
        <Box
          key={field.source}
          // A text search's placeholder names what it searches: room for it to show whole.
          sx={{
            minWidth: { xs: '100%', sm: 180 },
            flex: { xs: '1 1 100%', sm: field.type === 'text' ? '0 1 300px' : '0 1 220px' },
          }}
        >
          <SchemaInput field={field} source={field.source} resource={schema.name} mode="filter" />
        </Box>
      ))}
    </>
  );
}

/** The row: inline filters, the hidden ones when opened, and the buttons. */
function Row({ children, buttons }: { children: ReactNode; buttons: ReactNode }) {
  return (
    <Stack
      direction="row"
      spacing={1}
      useFlexGap
      flexWrap="wrap"
      alignItems="center"
      sx={{ py: 1, '& .MuiFormControl-root': { m: 0, width: '100%' }, '& .MuiFormHelperText-root': { display: 'none' } }}
    >
      {children}
      {buttons}
    </Stack>
  );
}

function MoreButton({ open, count, onClick }: { open: boolean; count: number; onClick: () => void }) {
  const translate = useTranslate();
  if (count === 0) return null;
  return (
    <Button size="small" startIcon={<FilterListIcon />} aria-expanded={open} onClick={onClick}>
      <Badge color="primary" variant="dot" invisible={open}>
        {translate(open ? 'app.list.fewer_filters' : 'app.list.more_filters')}
      </Badge>
    </Button>
  );
}

/** Filters that apply with Query; Reset clears them (back to the screen's opening values). */
function SubmitFilters({ schema, inline, more }: { schema: ResourceSchema; inline: FieldSchema[]; more: FieldSchema[] }) {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, setFilters } = useListContext();
  const [open, setOpen] = useState(() => more.some((f) => filterValues[f.source] !== undefined));
  const form = useForm({ defaultValues: filterValues as Record<string, unknown> });
  const query = form.handleSubmit((values) => {
    const filter = trimmed(values);
    const refusal = schema.list?.validateFilter?.(filter);
    if (refusal) {
      notify(refusal, { type: 'error' });
      return;
    }
    setFilters(filter, {}, false);
  });
  const reset = () => {
    const defaults = schema.list?.filterDefaults?.() ?? {};
    form.reset(Object.fromEntries([...inline, ...more].map((f) => [f.source, defaults[f.source] ?? ''])));
    setFilters(defaults, {}, false);
  };
  return (
    <FormProvider {...form}>
      <Box component="form" role="search" onSubmit={(e) => void query(e)} sx={{ flex: 1 }}>
        <Row
          buttons={
            <Stack direction="row" spacing={1}>
              <Button type="submit" variant="contained" size="small" startIcon={<SearchIcon />}>
                {translate('app.list.query')}
              </Button>
              <Button size="small" onClick={reset}>
                {translate('app.list.reset')}
              </Button>
              <MoreButton open={open} count={more.length} onClick={() => setOpen(!open)} />
            </Stack>
          }
        >
          <Inputs schema={schema} fields={open ? [...inline, ...more] : inline} />
        </Row>
      </Box>
    </FormProvider>
  );
}

function LiveFilters({ schema, inline, more }: { schema: ResourceSchema; inline: FieldSchema[]; more: FieldSchema[] }) {
  const { filterValues } = useListContext();
  const [open, setOpen] = useState(() => more.some((f) => filterValues[f.source] !== undefined));
  return (
    <Box role="search" sx={{ flex: 1 }}>
      <FilterLiveForm>
        <Row buttons={<MoreButton open={open} count={more.length} onClick={() => setOpen(!open)} />}>
          <Inputs schema={schema} fields={open ? [...inline, ...more] : inline} />
        </Row>
      </FilterLiveForm>
    </Box>
  );
}

/** The filter bar of a schema's list (react-admin's list toolbar passes props it does not use). */
export function SchemaFilterBar({ schema, role }: { schema: ResourceSchema; role: number }) {
  const fields = filterFields(schema, role, useAccessPolicy());
  const inline = fields.filter(alwaysOn);
  const more = fields.filter((f) => !alwaysOn(f));
  return schema.list?.filterMode === 'submit' ? (
    <SubmitFilters schema={schema} inline={inline} more={more} />
  ) : (
    <LiveFilters schema={schema} inline={inline} more={more} />
  );
}
