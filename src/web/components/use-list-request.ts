import type { ListPage } from '../api.ts';
import { useRequest, type Request } from './use-request.ts';

export interface ListRequest<Row> extends Omit<Request<ListPage<Row>>, 'answer' | 'last'> {
  /** The last page, or null while none has come or the last request failed. */
  list: ListPage<Row> | null;
}

/** One page of a list, asked for as `useRequest` asks (see there). */
export function useListRequest<Row>(
  what: string,
  key: string,
  send: (signal: AbortSignal) => Promise<ListPage<Row>>,
  accept?: (answer: ListPage<Row>) => boolean,
): ListRequest<Row> {
  const { answer, loading, failed, retry } = useRequest(what, key, send, accept);
  return { list: answer, loading, failed, retry };
}
