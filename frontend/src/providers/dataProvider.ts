import type { BaseRecord, CrudFilter, CrudSort, DataProvider, Pagination } from "@refinedev/core";
import { api, call } from "../api/client";
import { ApiError } from "../api/errors";
import type { paths } from "../api/schema";

/**
 * Refine's data provider over the typed client. Our API answers lists as
 * `{data, pagination: {totalDocuments, totalPages}}` and single records as
 * `{data, message?}`, which is why this is our own provider and not
 * `@refinedev/simple-rest` (that one reads `x-total-count` and bare bodies).
 *
 * Each Refine resource names its list and record paths below; the paths are checked
 * against the generated schema, so a renamed route breaks the build. The record types
 * come from the schema too: `useList<Size>({ resource: "sizes" })` with `Size` from
 * `api/types.ts`.
 */
export const RESOURCE_PATHS = {
  users: { list: "/api/users", one: "/api/users/{id}" },
  print: { list: "/api/print", one: "/api/print/{id}" },
  sizes: { list: "/api/sizes", one: "/api/sizes/{id}" },
  images: { list: "/api/images", one: "/api/images/{id}" },
  "image-categories": { list: "/api/image-categories", one: "/api/image-categories/{id}" },
  "sheet-presets": { list: "/api/sheet-presets", one: "/api/sheet-presets/{id}" },
  payment: { list: "/api/payment", one: "/api/payment/{id}" },
  "api-keys": { list: "/api/api-keys", one: "/api/api-keys/{id}" },
  webhooks: { list: "/api/webhooks", one: "/api/webhooks/{id}" },
} as const satisfies Record<string, { list: keyof paths; one: keyof paths }>;

export type ResourceName = keyof typeof RESOURCE_PATHS;

/**
 * `meta` of a Refine call, for the routes beside a resource's list and record paths:
 * `{ path: "/api/users/{id}/credit" }` (the `{id}` of the call is filled in), with any
 * other path parameters in `params`, e.g. `{ path: "/api/print/user/{userId}", params: { userId } }`.
 */
export interface ResourceMeta {
  path?: keyof paths;
  params?: Record<string, string>;
  method?: "PUT" | "PATCH";
  query?: Record<string, string | number>;
}

type Query = Record<string, string | number | string[]>;

/**
 * Turns Refine's list arguments into our query contract:
 * page, limit, sortBy, sort, search and each filter as its own parameter.
 * A filter on the field "search" becomes the free-text search.
 */
export function listQuery(pagination?: Pagination, sorters?: CrudSort[], filters?: CrudFilter[]): Query {
  const query: Query = {};
  if (pagination?.mode !== "off") {
    query.page = pagination?.currentPage ?? 1;
    query.limit = pagination?.pageSize ?? 10;
  }
  const sorter = sorters?.[0];
  if (sorter) {
    query.sortBy = sorter.field;
    query.sort = sorter.order;
  }
  for (const filter of filters ?? []) {
    if (!("field" in filter)) continue; // our API has no and/or filters
    const { field, value } = filter;
    if (value === undefined || value === null || value === "") continue;
    query[field] = Array.isArray(value) ? value.map(String) : String(value);
  }
  return query;
}

// Refine's default error toast shows `description`; our notification provider prints
// it, so the data provider stays silent to avoid a second toast.
function asRefineError(err: unknown): never {
  if (err instanceof ApiError) {
    throw Object.assign(new Error(err.message), { message: err.message, statusCode: err.statusCode, code: err.code });
  }
  throw err;
}

function pathsOf(resource: string): { list: keyof paths; one: keyof paths } {
  const known = (RESOURCE_PATHS as Record<string, { list: keyof paths; one: keyof paths }>)[resource];
  if (!known) throw new Error(`No API paths for the Refine resource "${resource}" (add it to RESOURCE_PATHS)`);
  return known;
}

// Refine hands us a resource name at run time, so the generic calls go through the
// client with the path as a plain string; the table above is what is checked.
type Init = { params?: { path?: Record<string, string>; query?: Query }; body?: unknown };
type Result = Promise<{ data?: unknown; error?: unknown; response: Response }>;
const untyped = api as unknown as Record<"GET" | "POST" | "PUT" | "PATCH" | "DELETE", (path: string, init: Init) => Result>;

type Body = { data?: unknown; message?: string; pagination?: { totalDocuments: number; totalPages: number } } | undefined;
const send = (method: keyof typeof untyped, path: string, init: Init) =>
  call(untyped[method](path, init), { silent: true }).catch(asRefineError) as Promise<Body>;

const paramsOf = (meta: ResourceMeta | undefined, id?: string | number) => ({
  ...(id === undefined ? {} : { id: String(id) }),
  ...meta?.params,
});

export const dataProvider: DataProvider = {
  getApiUrl: () => "/api",

  async getList({ resource, pagination, sorters, filters, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("GET", m?.path ?? pathsOf(resource).list, {
      params: { path: paramsOf(m), query: { ...listQuery(pagination, sorters, filters), ...m?.query } },
    });
    const data = (res?.data ?? []) as BaseRecord[];
    return { data, total: res?.pagination?.totalDocuments ?? data.length, pagination: res?.pagination } as never;
  },

  async getOne({ resource, id, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("GET", m?.path ?? pathsOf(resource).one, { params: { path: paramsOf(m, id) } });
    return { data: res?.data } as never;
  },

  async create({ resource, variables, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("POST", m?.path ?? pathsOf(resource).list, { params: { path: paramsOf(m) }, body: variables });
    return { data: res?.data, message: res?.message } as never;
  },

  async update({ resource, id, variables, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send(m?.method ?? "PUT", m?.path ?? pathsOf(resource).one, { params: { path: paramsOf(m, id) }, body: variables });
    return { data: res?.data, message: res?.message } as never;
  },

  async deleteOne({ resource, id, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("DELETE", m?.path ?? pathsOf(resource).one, { params: { path: paramsOf(m, id) } });
    return { data: res?.data ?? { _id: id } } as never;
  },
};
