/**
 * A list endpoint that answers one page at a time (`page`, `size`): one page of a query, every item
 * page after page, and the lookup of the record a create whose answer was lost made. One definition
 * for the disputes, form sessions, orders and transactions.
 */
import type { z } from 'zod';
import type { ClientContext } from '../context.js';
import { LOOKUP_SIZE } from '../create-once.js';
import { createdSince, latestCreated } from '../matching.js';
import type { Resolved } from '../options.js';
import { queryOf } from '../request-checks.js';
import type { Page } from '../schemas.js';
import { eachItem, type AllPagesQuery, type RequestOptions } from '../types.js';

/** Items asked for a page when walking every page. */
const ALL_PAGES_SIZE = 100;

export interface PagedList<Q, T> {
  /** One page of `query`, checked against the endpoint's query schema before it is sent. */
  page(query: Q | undefined, options: RequestOptions | undefined): Promise<Page<T>>;
  /** Every item of `query`, page after page (100 a page unless `size` says otherwise), each once. */
  all(query: AllPagesQuery<Q> | undefined, options: RequestOptions | undefined): AsyncIterable<T>;
  /**
   * The latest item of one page of `params` (with the lookup's page size) that `belongs` and was
   * created since `sinceMs`: what a create whose answer was lost made.
   */
  findCreated(params: Record<string, string>, belongs: (item: T) => boolean, sinceMs: number, r: Resolved): Promise<T | undefined>;
}

export interface PagedListSpec<S extends z.ZodType, T> {
  path: string;
  /** The query's schema (the client's request check). */
  query: z.ZodType;
  /** The answer's schema. */
  answer: S;
  /** The page inside the answer. */
  items(answer: z.output<S>): Page<T>;
  /** An item's id (a record that moves between pages while they are walked is yielded once). */
  id(item: T): string;
}

export function pagedList<Q extends object, T extends { created_at: string }, S extends z.ZodType>(
  { read, resolve }: Pick<ClientContext, 'read' | 'resolve'>,
  spec: PagedListSpec<S, T>,
): PagedList<Q, T> {
  const fetchPage = async (params: URLSearchParams, r: Resolved): Promise<Page<T>> =>
    spec.items(await read({ method: 'GET', path: spec.path, kind: 'read', query: params }, spec.answer, r));
  const list: PagedList<Q, T> = {
    async page(query, options) {
      return fetchPage(queryOf(spec.query, query, 'query'), resolve(options));
    },
    all(query, options) {
      return eachItem((page) => list.page({ size: ALL_PAGES_SIZE, ...query, page } as unknown as Q, options), spec.id);
    },
    async findCreated(params, belongs, sinceMs, r) {
      const found = await fetchPage(new URLSearchParams({ ...params, size: String(LOOKUP_SIZE) }), r);
      return latestCreated(found.items.filter((item) => belongs(item) && createdSince(item, sinceMs)));
    },
  };
  return list;
}
