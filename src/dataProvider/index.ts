/**
 * The one dataProvider: react-admin's calls mapped onto the gateway's `{success,message,data}`
 * API through src/api/client.ts. Per-resource differences live in ./endpoints.ts.
 */
import type {
  CreateParams,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetListResult,
  GetManyParams,
  GetManyReferenceParams,
  GetManyReferenceResult,
  GetOneParams,
  Identifier,
  RaRecord,
  UpdateManyParams,
  UpdateParams,
} from 'react-admin';
import { api } from '../api/client';
import { customMethods, type GatewayDataProvider } from '../api/customMethods';
import { forgetChoicesOf } from '../resources/schema/choices';
import { endpointsFor, type ResourceEndpoints } from './endpoints';
import type { ManageMeta } from './types';

export { ENDPOINTS, type ResourceEndpoints } from './endpoints';

interface PageAnswer<T> {
  items: T[];
  total: number;
}

type Filter = Record<string, unknown>;

/** Filter values worth sending: trimmed, non-empty. `q` (react-admin's search box) is `keyword`. */
function cleanFilter(filter: Filter | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(filter ?? {})) {
    if (value === undefined || value === null) continue;
    const text = String(value).trim();
    if (text !== '') out[key === 'q' ? 'keyword' : key] = text;
  }
  return out;
}

export function listUrl(endpoints: ResourceEndpoints, filter: Filter | undefined, page: number, perPage: number): string {
  const values = cleanFilter(filter);
  const searching = endpoints.search?.params.some((name) => values[name] !== undefined);
  const path = searching && endpoints.search ? endpoints.search.path : endpoints.base;
  const query = new URLSearchParams(values);
  query.set('p', String(page));
  query.set(endpoints.pageSizeParam ?? 'page_size', String(perPage));
  return `${path}?${query.toString()}`;
}

function toPage<T>(data: PageAnswer<T> | T[] | null | undefined): PageAnswer<T> {
  if (Array.isArray(data)) return { items: data, total: data.length };
  return { items: data?.items ?? [], total: data?.total ?? 0 };
}

function isRecord(value: unknown): value is RaRecord {
  return typeof value === 'object' && value !== null && 'id' in value;
}

/** A record out of its wrapper, for resources whose answers wrap them (`wrap`). */
function unwrap(endpoints: ResourceEndpoints, value: unknown): RaRecord {
  const inner =
    endpoints.wrap && typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[endpoints.wrap] : value;
  return inner as RaRecord;
}

async function getList(resource: string, filter: Filter | undefined, page: number, perPage: number) {
  const endpoints = endpointsFor(resource);
  const answer = await api.get<PageAnswer<RaRecord> | RaRecord[]>(listUrl(endpoints, filter, page, perPage));
  const { items, total } = toPage(answer);
  return { data: items.map((item) => unwrap(endpoints, item)), total };
}

async function getOne(resource: string, id: Identifier): Promise<RaRecord> {
  const endpoints = endpointsFor(resource);
  return unwrap(endpoints, await api.get<unknown>(`${endpoints.base}${encodeURIComponent(String(id))}`));
}

function manageAction(meta: unknown): string | undefined {
  const action = (meta as Partial<ManageMeta> | undefined)?.manage;
  return typeof action === 'string' ? action : undefined;
}

/*
 * The API answers plain records; react-admin's methods are generic over the record type, so each
 * answer is narrowed to the caller's type at this one boundary.
 */
/** react-admin's methods, plus the gateway's own calls the custom pages make through the data layer. */
export const dataProvider: GatewayDataProvider = {
  ...customMethods,
  getList: async <R extends RaRecord>(resource: string, { pagination, filter }: GetListParams) =>
    (await getList(resource, filter as Filter | undefined, pagination?.page ?? 1, pagination?.perPage ?? 10)) as GetListResult<R>,

  getOne: async <R extends RaRecord>(resource: string, { id }: GetOneParams) => ({ data: (await getOne(resource, id)) as R }),

  getMany: async <R extends RaRecord>(resource: string, { ids }: GetManyParams) => ({
    data: (await Promise.all(ids.map((id) => getOne(resource, id)))) as R[],
  }),

  getManyReference: async <R extends RaRecord>(resource: string, { target, id, pagination, filter }: GetManyReferenceParams) =>
    (await getList(
      resource,
      { ...(filter as Filter), [target]: id },
      pagination.page,
      pagination.perPage,
    )) as GetManyReferenceResult<R>,

  create: async <R extends Omit<RaRecord, 'id'>, Result extends RaRecord = R & { id: Identifier }>(
    resource: string,
    { data }: CreateParams<R>,
  ) => {
    const endpoints = endpointsFor(resource);
    const created = await api.post<unknown>(endpoints.base, endpoints.wrap ? { [endpoints.wrap]: data } : data);
    forgetChoicesOf(resource);
    // Some endpoints answer the new record, others nothing: keep what was sent then.
    const record = isRecord(created) ? created : { ...(data as object), id: (data as Partial<RaRecord>).id ?? 0 };
    return { data: record as Result };
  },

  update: async <R extends RaRecord>(resource: string, { id, data, previousData, meta }: UpdateParams<R>) => {
    // The record keeps the server's numeric id; the route's id is a string.
    const recordId = previousData?.id ?? (data as Partial<RaRecord>).id ?? id;
    const action = manageAction(meta);
    if (action) {
      const path = endpointsFor(resource).manage;
      if (!path) throw new Error(`Resource "${resource}" has no manage endpoint`);
      const changed = await api.post<object | undefined>(path, { id: recordId, action });
      return { data: { ...previousData, ...data, ...changed, id: recordId } as R };
    }
    const body = { ...data, id: recordId };
    const endpoints = endpointsFor(resource);
    const updated = endpoints.wrap
      ? await api.put<unknown>(`${endpoints.base}${encodeURIComponent(String(recordId))}`, { [endpoints.wrap]: body })
      : await api.put<unknown>(endpoints.base, body);
    forgetChoicesOf(resource);
    return { data: (isRecord(updated) ? updated : body) as R };
  },

  updateMany: async (resource: string, { ids, data }: UpdateManyParams) => {
    const base = endpointsFor(resource).base;
    await Promise.all(ids.map((id) => api.put(base, { ...(data as object), id })));
    return { data: ids };
  },

  delete: async <R extends RaRecord>(resource: string, { id, previousData }: DeleteParams<R>) => {
    const endpoints = endpointsFor(resource);
    const call = endpoints.remove?.(id) ?? {
      method: 'DELETE' as const,
      path: `${endpoints.base}${encodeURIComponent(String(id))}/`,
    };
    if (call.method === 'POST') await api.post(call.path, call.body);
    else await api.delete(call.path);
    forgetChoicesOf(resource);
    return { data: previousData ?? ({ id } as R) };
  },

  deleteMany: async (resource: string, { ids }: DeleteManyParams) => {
    await Promise.all(ids.map((id) => dataProvider.delete(resource, { id })));
    return { data: ids };
  },
};
