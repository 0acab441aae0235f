import { useSearchParams } from 'react-router';

/**
 * A view's state in the URL's search parameters, so it can be shared and survives a reload:
 * `update` changes the ones it names (`undefined` removes one) and keeps the others.
 */
export function useUrlParams<Key extends string>() {
  const [params, setParams] = useSearchParams();
  const update = (changes: Partial<Record<Key, string | undefined>>) =>
    setParams((current) => {
      const next = new URLSearchParams(current);
      for (const [key, value] of Object.entries<string | undefined>(changes)) {
        if (value) next.set(key, value);
        else next.delete(key);
      }
      return next;
    });
  return [params, update] as const;
}
