/** An observation's own fields (the `observation` of an `ObservationEvent`). */
export interface Observation {
  kind: string;
  content: { type: 'text'; text: string; cache_prompt: boolean }[];
  is_error: boolean;
  [field: string]: unknown;
}

export const text = (value: string) => [{ type: 'text' as const, text: value, cache_prompt: false }];

/** What a tool needs of its conversation. */
export interface ToolContext {
  workingDir: string;
  /** The terminal's environment: the sandbox's, the conversation's `environment` and secrets. */
  env: Record<string, string>;
  /** Replaces the conversation's secret values in `text`: for output a tool cuts before it is stored. */
  mask: (text: string) => string;
}
