import { useState, type FormEvent } from 'react';
import { Button, MenuItem, Stack, TextField } from '@mui/material';
import SearchIcon from '@mui/icons-material/Search';
import { useListContext, useNotify, useTranslate } from 'react-admin';
import { useGroupNames } from './ModelsInput';

/** The search fields; `status` uses the API's names (empty = all). */
export interface ChannelSearch {
  keyword: string;
  status: '' | 'enabled' | 'disabled' | 'auto_disabled';
  key: string;
  model: string;
  group: string;
}

const EMPTY: ChannelSearch = { keyword: '', status: '', key: '', model: '', group: '' };
const STATUSES = ['enabled', 'disabled', 'auto_disabled'] as const;

function fromFilter(filter: Record<string, unknown>): ChannelSearch {
  const read = (name: keyof ChannelSearch) => (typeof filter[name] === 'string' ? (filter[name] as string) : '');
  const status = read('status');
  return {
    keyword: read('keyword'),
    status: (STATUSES as readonly string[]).includes(status) ? (status as ChannelSearch['status']) : '',
    key: read('key'),
    model: read('model'),
    group: read('group'),
  };
}

/**
 * Keyword (id, name or key), status, key, model and group; applied with Query, cleared with
 * Reset. A key search needs a model (spec 5). Values are trimmed before they are sent.
 */
export function ChannelSearchForm() {
  const translate = useTranslate();
  const notify = useNotify();
  const { filterValues, setFilters } = useListContext();
  const groups = useGroupNames();
  const [values, setValues] = useState<ChannelSearch>(() => fromFilter(filterValues as Record<string, unknown>));
  const set = (field: keyof ChannelSearch) => (e: { target: { value: string } }) =>
    setValues((v) => ({ ...v, [field]: e.target.value }));
  const label = (field: string) => translate(`resources.channels.search.${field}`);

  const query = (event?: FormEvent) => {
    event?.preventDefault();
    const trimmed = Object.fromEntries(Object.entries(values).map(([k, v]) => [k, v.trim()])) as unknown as ChannelSearch;
    if (trimmed.key !== '' && trimmed.model === '') {
      notify('resources.channels.validation.key_needs_model', { type: 'error' });
      return;
    }
    const filter = Object.fromEntries(Object.entries(trimmed).filter(([, v]) => v !== ''));
    setFilters(filter, {}, false);
  };
  const reset = () => {
    setValues(EMPTY);
    setFilters({}, {}, false);
  };

  return (
    <Stack
      component="form"
      onSubmit={query}
      direction="row"
      spacing={1}
      flexWrap="wrap"
      useFlexGap
      alignItems="center"
      sx={{ p: 1 }}
      role="search"
    >
      <TextField size="small" label={label('keyword')} value={values.keyword} onChange={set('keyword')} sx={{ minWidth: 220 }} />
      <TextField
        select
        size="small"
        label={label('status')}
        value={values.status}
        onChange={set('status')}
        sx={{ minWidth: 130 }}
      >
        <MenuItem value="">{translate('resources.channels.search.all')}</MenuItem>
        {STATUSES.map((status) => (
          <MenuItem key={status} value={status}>
            {translate(`resources.channels.statuses.${status}`)}
          </MenuItem>
        ))}
      </TextField>
      <TextField size="small" label={label('key')} value={values.key} onChange={set('key')} />
      <TextField size="small" label={label('model')} value={values.model} onChange={set('model')} />
      <TextField select size="small" label={label('group')} value={values.group} onChange={set('group')} sx={{ minWidth: 130 }}>
        <MenuItem value="">{translate('resources.channels.search.all')}</MenuItem>
        {[...new Set([...groups, ...(values.group ? [values.group] : [])])].map((group) => (
          <MenuItem key={group} value={group}>
            {group}
          </MenuItem>
        ))}
      </TextField>
      <Button type="submit" variant="contained" size="small" startIcon={<SearchIcon />}>
        {translate('resources.channels.search.query')}
      </Button>
      <Button size="small" onClick={reset}>
        {translate('resources.channels.search.reset')}
      </Button>
    </Stack>
  );
}
