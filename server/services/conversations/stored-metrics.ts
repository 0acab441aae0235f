import { type Metrics, metricsSchema } from '../../../src/contract/conversations';

/** A conversation's metrics as stored (JSON, or null before its agent's first report); null when they do not read. */
export function storedMetrics(text: string | null): Metrics | null {
  // Most rows have none: parsing null only to fail would cost an error object per row.
  if (text === null) return null;
  try {
    const metrics = metricsSchema.safeParse(JSON.parse(text));
    return metrics.success ? metrics.data : null;
  } catch {
    return null;
  }
}
