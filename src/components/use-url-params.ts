import { useRef } from 'react';
import { useSearchParams } from 'react-router';

type Changes<Key extends string> = Partial<Record<Key, string | undefined>>;

/**
 * A view's state in the URL's search parameters, so it can be shared and survives a reload:
 * `update` changes the ones it names (`undefined` removes one) and keeps the others. Given a
 * function, it computes the changes from the parameters as they are now.
 *
 * Each update starts from the last one written, not from the last render: the router renders a
 * change later, and a second change made before that render (two filters picked in quick
 * succession) must not bring back what the first one changed.
 */
export function useUrlParams<Key extends string>() {
  const [params, setParams] = useSearchParams();
  // What this hook wrote since the URL last rendered: the newest, and each one's text.
  const written = useRef<{ rendered: URLSearchParams; newest: URLSearchParams; texts: Set<string> }>(undefined);
  const update = (changes: Changes<Key> | ((current: URLSearchParams) => Changes<Key>)) => {
    let pending = written.current;
    // Caught up, or moved elsewhere (back, a link): the rendered parameters are current again.
    if (
      pending &&
      pending.rendered !== params &&
      (params.toString() === pending.newest.toString() || !pending.texts.has(params.toString()))
    )
      pending = undefined;
    const current = pending?.newest ?? params;
    const next = new URLSearchParams(current);
    for (const [key, value] of Object.entries<string | undefined>(typeof changes === 'function' ? changes(current) : changes)) {
      if (value) next.set(key, value);
      else next.delete(key);
    }
    written.current = { rendered: pending?.rendered ?? params, newest: next, texts: new Set([...(pending?.texts ?? []), next.toString()]) };
    setParams(next);
  };
  return [params, update] as const;
}
