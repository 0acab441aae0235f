import { useCallback, useState } from 'react';

const read = (key: string): boolean | undefined => {
  try {
    const stored = JSON.parse(localStorage.getItem(key) ?? 'null') as unknown;
    return typeof stored === 'boolean' ? stored : undefined;
  } catch {
    return undefined;
  }
};

/**
 * A yes or no remembered in this browser, stored as Mantine's `useLocalStorage` stores it (JSON),
 * without bringing its storage layer into every page's first download.
 */
export function useStoredFlag(key: string, initial: boolean): [boolean, (value: boolean) => void] {
  const [value, setValue] = useState(() => read(key) ?? initial);
  const change = useCallback(
    (next: boolean) => {
      setValue(next);
      try {
        localStorage.setItem(key, JSON.stringify(next));
      } catch {
        // Storage blocked: remembered until the page is left.
      }
    },
    [key],
  );
  return [value, change];
}
