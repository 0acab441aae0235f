import { StringDecoder } from 'node:string_decoder';
import { Transform, type TransformCallback } from 'node:stream';

/** What one call used, as OpenAI reports it. */
export interface CallUsage {
  prompt_tokens: number;
  completion_tokens: number;
  /** Of the prompt tokens, those read from the provider's cache. */
  cache_read_tokens: number;
}

interface ReportedUsage {
  prompt_tokens?: unknown;
  completion_tokens?: unknown;
  prompt_tokens_details?: { cached_tokens?: unknown } | null;
}

/** A JSON body is read for its usage up to this size; a stream's lines each up to it (usage comes in a small one). */
const READ_LIMIT = 8 * 1024 * 1024;

const count = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.round(value) : 0);

function usageIn(text: string): CallUsage | undefined {
  let parsed: { usage?: ReportedUsage | null };
  try {
    parsed = JSON.parse(text) as typeof parsed;
  } catch {
    return undefined;
  }
  const usage = parsed?.usage;
  if (!usage || typeof usage !== 'object') return undefined;
  return {
    prompt_tokens: count(usage.prompt_tokens),
    completion_tokens: count(usage.completion_tokens),
    cache_read_tokens: count(usage.prompt_tokens_details?.cached_tokens),
  };
}

/**
 * Passes an OpenAI response through unchanged and reads what it says the call used: the `usage`
 * of its JSON body, or of the stream's event that carries one (the last, with `include_usage`).
 */
export class UsageMeter extends Transform {
  #usage: CallUsage | undefined;
  #text = '';
  readonly #decoder = new StringDecoder('utf8');

  constructor(private readonly streamed: boolean) {
    super();
  }

  /** What the response said it used; `undefined` when it said nothing (an error, a stream cut short). */
  get usage(): CallUsage | undefined {
    return this.#usage;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.#read(this.#decoder.write(chunk));
    done(null, chunk);
  }

  override _flush(done: TransformCallback): void {
    this.#read(this.#decoder.end());
    if (this.streamed) this.#readLine(this.#text);
    else this.#usage = usageIn(this.#text);
    this.#text = '';
    done();
  }

  #read(text: string): void {
    if (!this.streamed) {
      if (this.#text.length + text.length <= READ_LIMIT) this.#text += text;
      return;
    }
    const lines = (this.#text + text).split('\n');
    this.#text = lines.pop() ?? '';
    if (this.#text.length > READ_LIMIT) this.#text = ''; // no usage line is that long
    for (const line of lines) this.#readLine(line);
  }

  #readLine(line: string): void {
    const data = /^data:\s?(.*)$/.exec(line.trimEnd())?.[1];
    if (data === undefined || !data.includes('"usage"') || data.includes('"usage":null')) return;
    this.#usage = usageIn(data) ?? this.#usage;
  }
}
