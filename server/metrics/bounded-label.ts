/** The longest label value kept; longer ones are cut. */
const MAX_LENGTH = 100;

/**
 * Label values from outside (the model a sandbox names in its LLM call: sandbox code is hostile)
 * kept to `limit` distinct ones: each series is memory held for good, so values past the limit
 * count under `other`.
 */
export function boundedLabel(limit: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    const kept = value.slice(0, MAX_LENGTH);
    if (seen.has(kept)) return kept;
    if (seen.size >= limit) return 'other';
    seen.add(kept);
    return kept;
  };
}
