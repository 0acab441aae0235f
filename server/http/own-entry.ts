/** Sets `key` as an own property of `target`, so a key sent as data (`__proto__`) stays data. */
export function withEntry(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
