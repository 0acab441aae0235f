import type { Insertable } from 'kysely';
import type { Db } from './database';
import type { LlmCallsTable } from './schema';

export type NewLlmCall = Insertable<LlmCallsTable>;

/** The LLM calls agents made through the LLM proxy, with what each used. */
export class LlmCallsStore {
  constructor(private readonly db: Db) {}

  async insert(call: NewLlmCall): Promise<void> {
    await this.db.insertInto('llm_calls').values(call).execute();
  }
}
