import { useList, useOne, type BaseKey, type BaseRecord, type HttpError, type UseListProps, type UseOneProps } from "@refinedev/core";
import type { paths } from "../api/schema";
import type { ResourceMeta } from "../providers/dataProvider";
import type { ApiOf, ResourceName } from "../routes";

/** The JSON body a GET on `P` answers with. */
type GetBody<P> = P extends keyof paths
  ? paths[P] extends { get: { responses: { 200: { content: { "application/json": infer B } } } } }
    ? B
    : never
  : never;

/** A record of a resource's list, as its list path answers it (`Size` for "sizes"). */
export type ListRecord<N extends ResourceName> = GetBody<ApiOf<N>["list"]> extends { data: readonly (infer R extends BaseRecord)[] } ? R : never;
/** A resource's single record, as its record path answers it. */
export type OneRecord<N extends ResourceName> = ApiOf<N> extends { one: infer P } ? (GetBody<P> extends { data: infer R extends BaseRecord } ? R : never) : never;

type ListArgs<N extends ResourceName> = Omit<UseListProps<ListRecord<N>, HttpError, ListRecord<N>>, "resource" | "meta"> & { meta?: ResourceMeta };
type OneArgs<N extends ResourceName> = Omit<UseOneProps<OneRecord<N>, HttpError, OneRecord<N>>, "resource" | "id" | "meta"> & { meta?: ResourceMeta };

/**
 * A page of a resource's records through Refine (cache, invalidation, notifications), typed
 * by the schema: `useResourceList("sizes", list.refine).result.data` is `Size[]`.
 */
export const useResourceList = <N extends ResourceName>(resource: N, args: ListArgs<N> = {}) =>
  useList<ListRecord<N>, HttpError, ListRecord<N>>({ ...args, resource });

/** One record of a resource through Refine, typed by the schema. */
export const useResourceOne = <N extends ResourceName>(resource: N, id: BaseKey | undefined, args: OneArgs<N> = {}) =>
  useOne<OneRecord<N>, HttpError, OneRecord<N>>({ ...args, resource, id: id ?? "", queryOptions: { ...args.queryOptions, enabled: id !== undefined && id !== "" && (args.queryOptions?.enabled ?? true) } });
export type { ResourceName };
