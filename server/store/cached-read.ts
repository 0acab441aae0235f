import { changeCountOf, type Db } from './database';

/** `value` and, for a list, each of its rows frozen: a kept read may be answered again, so nobody may change it. */
function frozen<T>(value: T): T {
  if (Array.isArray(value)) for (const row of value) Object.freeze(row);
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

/**
 * `read`, kept for its last key while the database's change count (see changeCountOf) stays what
 * it was before that read: for what most requests read and writes seldom change. On PostgreSQL,
 * where other instances write unseen, every call reads. What it answers is frozen.
 */
export function cachedWhileUnchanged<T>(db: Db, read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const changeCount = changeCountOf(db);
  // Frozen there too, so both databases answer alike.
  if (!changeCount) return (key) => read(key).then(frozen);
  let kept: { key: string; at: string; value: Promise<T> } | undefined;
  return async (key) => {
    // Counted before reading: a write between the count and the read only makes the next call read again.
    const at = await changeCount();
    // In a transaction of this connection's: read after it, through the queue, and keep nothing.
    if (at === undefined) return read(key).then(frozen);
    if (kept && kept.key === key && kept.at === at) return kept.value;
    const value = read(key).then(frozen);
    const entry = { key, at, value };
    kept = entry;
    value.catch(() => {
      if (kept === entry) kept = undefined;
    });
    return value;
  };
}
