import { ListContextProvider, Pagination, useListContext } from 'react-admin';

export const PAGE_SIZE_KEY = 'page-size';
export const PAGE_SIZES = [10, 20, 50, 100];

/** The page size chosen last in any table (default 10, remembered as `page-size`). */
export function storedPageSize(): number {
  const size = Number(localStorage.getItem(PAGE_SIZE_KEY));
  return PAGE_SIZES.includes(size) ? size : 10;
}

/** react-admin's pagination with sizes 10, 20, 50 and 100; a new size is remembered for every table. */
export function RememberedPagination() {
  const context = useListContext();
  const setPerPage = (size: number) => {
    localStorage.setItem(PAGE_SIZE_KEY, String(size));
    context.setPerPage(size);
  };
  return (
    <ListContextProvider value={{ ...context, setPerPage }}>
      <Pagination rowsPerPageOptions={PAGE_SIZES} />
    </ListContextProvider>
  );
}
