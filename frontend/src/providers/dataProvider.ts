import type { BaseRecord, CrudFilter, CrudSort, DataProvider, Pagination } from "@refinedev/core";
import { api, call } from "../api/client";
import { ApiError } from "../api/errors";
import type { ClientPathsWithMethod } from "openapi-fetch";
import type { paths } from "../api/schema";
import type { ResourceApi } from "../routes";

/**
 * Refine's data provider over the typed client. Our API answers lists as
 * `{data, pagination: {totalDocuments, totalPages}}` and single records as
 * `{data, message?}`, which is why this is our own provider and not
 * `@refinedev/simple-rest` (that one reads `x-total-count` and bare bodies).
 *
 * Each resource's list and record paths come from the route table (`resourceApis()` in
 * src/routes.tsx), typed as schema paths. Screens read records through the typed hooks in
 * `hooks/useResource.ts`, whose record types follow from those paths.
 */
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

type Method = "get" | "post" | "put" | "patch" | "delete";
/** The schema paths that answer `method`. */
type PathFor<M extends Method> = ClientPathsWithMethod<typeof api, M>;
type Init = { params: { path: Record<string, string>; query?: Query }; body?: object };
type Body = { data?: unknown; message?: string; pagination?: { totalDocuments: number; totalPages: number } } | undefined;

// Refine names the resource at run time, so which path is called (and so the parameters it
// takes) is only known then: the paths are checked against the schema in the route table,
// the parameters are built by `listQuery` and `paramsOf`, and the record types are given
// back to the screens by hooks/useResource.ts from the same paths.
const request = {
  get: (path: PathFor<"get">, init: Init) => api.GET(path, init as never),
  post: (path: PathFor<"post">, init: Init) => api.POST(path, init as never),
  put: (path: PathFor<"put">, init: Init) => api.PUT(path, init as never),
  patch: (path: PathFor<"patch">, init: Init) => api.PATCH(path, init as never),
  delete: (path: PathFor<"delete">, init: Init) => api.DELETE(path, init as never),
};

const send = <M extends Method>(method: M, path: keyof paths, init: Init): Promise<Body> =>
  call<unknown>((request[method] as (path: keyof paths, init: Init) => ReturnType<typeof api.GET>)(path, init), { silent: true }).catch(asRefineError) as Promise<Body>;

const paramsOf = (meta: ResourceMeta | undefined, id?: string | number) => ({
  ...(id === undefined ? {} : { id: String(id) }),
  ...meta?.params,
});

/** The data provider for the resources of `apis` (name → API paths; see `resourceApis()`). */
export function createDataProvider(apis: Record<string, ResourceApi>): DataProvider {
  const pathsOf = (resource: string, which: "list" | "one"): keyof paths => {
    const path = apis[resource]?.[which];
    if (!path) throw new Error(`No ${which} path for the resource "${resource}" (declare its api in src/routes.tsx)`);
    return path;
  };
  return {
  getApiUrl: () => "/api",

  async getList({ resource, pagination, sorters, filters, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("get", m?.path ?? pathsOf(resource, "list"), {
      params: { path: paramsOf(m), query: { ...listQuery(pagination, sorters, filters), ...m?.query } },
    });
    const data = (res?.data ?? []) as BaseRecord[];
    return { data, total: res?.pagination?.totalDocuments ?? data.length, pagination: res?.pagination } as never;
  },

  async getOne({ resource, id, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("get", m?.path ?? pathsOf(resource, "one"), { params: { path: paramsOf(m, id) } });
    return { data: res?.data } as never;
  },

  async create({ resource, variables, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("post", m?.path ?? pathsOf(resource, "list"), { params: { path: paramsOf(m) }, body: variables as object });
    return { data: res?.data, message: res?.message } as never;
  },

  async update({ resource, id, variables, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send(m?.method === "PATCH" ? "patch" : "put", m?.path ?? pathsOf(resource, "one"), { params: { path: paramsOf(m, id) }, body: variables as object });
    return { data: res?.data, message: res?.message } as never;
  },

  async deleteOne({ resource, id, meta }) {
    const m = meta as ResourceMeta | undefined;
    const res = await send("delete", m?.path ?? pathsOf(resource, "one"), { params: { path: paramsOf(m, id) } });
    return { data: res?.data ?? { _id: id } } as never;
  },
  };
}
