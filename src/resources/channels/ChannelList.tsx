import { useMemo, useState } from 'react';
import { List, useTranslate } from 'react-admin';
import { RememberedPagination, storedPageSize } from '../schema';
import { ChannelCreateDrawer, ChannelEditDrawer } from './ChannelDrawers';
import { ChannelSearchForm } from './ChannelSearchForm';
import { ChannelTable } from './ChannelTable';
import { ChannelToolbar } from './ChannelToolbar';
import { useColumnVisibility } from './ColumnSettings';

/** localStorage key of the sort-by-ID switch (spec 3). */
export const ID_SORT_KEY = 'id-sort';

/** /channel: channel management, with its add (/channel/add) and edit (/channel/edit/{id}) drawers. */
export default function ChannelList() {
  const translate = useTranslate();
  const [idSort, setIdSortState] = useState(() => localStorage.getItem(ID_SORT_KEY) === 'true');
  const [tagMode, setTagMode] = useState(false);
  const [batchMode, setBatchMode] = useState(false);
  const [columns, setColumn] = useColumnVisibility();
  const setIdSort = (on: boolean) => {
    localStorage.setItem(ID_SORT_KEY, String(on));
    setIdSortState(on);
  };
  // Sent with every list and search call; absent when off.
  const flags = useMemo(
    () => ({ ...(idSort ? { id_sort: true } : {}), ...(tagMode ? { tag_mode: true } : {}) }),
    [idSort, tagMode],
  );
  const modes = { idSort, tagMode, batchMode, setIdSort, setTagMode, setBatchMode };
  return (
    <>
      <List
        resource="channel"
        title={translate('resources.channels.name', { smart_count: 2 })}
        perPage={storedPageSize()}
        storeKey={false}
        filter={flags}
        actions={false}
        pagination={<RememberedPagination />}
        empty={false}
        exporter={false}
      >
        <ChannelSearchForm />
        <ChannelToolbar modes={modes} columns={columns} onColumnChange={setColumn} />
        <ChannelTable visible={columns} tagMode={tagMode} batchMode={batchMode} />
      </List>
      <ChannelCreateDrawer />
      <ChannelEditDrawer />
    </>
  );
}
