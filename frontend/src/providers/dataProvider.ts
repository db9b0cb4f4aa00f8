import type { CrudFilter, CrudSort, DataProvider, Pagination } from "@refinedev/core";
import { ApiError, http, type Envelope, type ListEnvelope, type Query } from "../api/http";

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

/** `meta.path` overrides the URL of a call, e.g. `users/${id}/credit`. */
const pathOf = (resource: string, meta?: Record<string, unknown>, id?: string | number) =>
  `/${(meta?.path as string) ?? (id === undefined ? resource : `${resource}/${id}`)}`;

export const dataProvider: DataProvider = {
  getApiUrl: () => "/api",

  async getList({ resource, pagination, sorters, filters, meta }) {
    const res = await http<ListEnvelope<any>>(pathOf(resource, meta), {
      query: { ...listQuery(pagination, sorters, filters), ...(meta?.query as Query | undefined) },
      silent: true,
    }).catch(asRefineError);
    return { data: res.data, total: res.pagination?.totalDocuments ?? res.data.length, pagination: res.pagination };
  },

  async getOne({ resource, id, meta }) {
    const res = await http<Envelope<any>>(pathOf(resource, meta, id), { silent: true }).catch(asRefineError);
    return { data: res.data };
  },

  async create({ resource, variables, meta }) {
    const res = await http<Envelope<any>>(pathOf(resource, meta), { method: "POST", body: variables, silent: true }).catch(asRefineError);
    return { data: res.data, message: res.message } as any;
  },

  async update({ resource, id, variables, meta }) {
    const res = await http<Envelope<any>>(pathOf(resource, meta, id), {
      method: (meta?.method as "PUT" | "PATCH") ?? "PUT",
      body: variables,
      silent: true,
    }).catch(asRefineError);
    return { data: res.data, message: res.message } as any;
  },

  async deleteOne({ resource, id, meta }) {
    const res = await http<Envelope<any>>(pathOf(resource, meta, id), { method: "DELETE", silent: true }).catch(asRefineError);
    return { data: res?.data ?? ({ _id: id } as any) };
  },

  async custom({ url, method, payload, query }) {
    const path = url.startsWith("/api") ? url.slice(4) : url;
    const res = await http<any>(path, {
      method: method.toUpperCase() as "GET",
      body: payload,
      query: query as Query,
      silent: true,
    }).catch(asRefineError);
    return { data: res?.data ?? res, message: res?.message } as any;
  },
};
