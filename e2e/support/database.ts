import path from 'node:path';
import SQLite from 'better-sqlite3';
import { conversationRecord } from '../../server/testing/conversation-records';

type ConversationFields = Parameters<typeof conversationRecord>[0];

/**
 * Conversations written straight into a server's (SQLite) database: what a test needs listed or
 * linked without starting a sandbox for each.
 */
export function insertConversations(dataDir: string, conversations: ConversationFields[]) {
  const database = new SQLite(path.join(dataDir, 'agent-console.db'));
  try {
    const columns = Object.keys(conversationRecord({ id: 'any' }));
    const insert = database.prepare(
      `INSERT INTO app_conversations (${columns.join(', ')}) VALUES (${columns.map((column) => `@${column}`).join(', ')})`,
    );
    database.transaction(() => {
      for (const fields of conversations) insert.run(conversationRecord(fields));
    })();
  } finally {
    database.close();
  }
}

/** An LLM call as the LLM proxy records it. */
export interface LlmCallFields {
  user_id: string;
  conversation_id: string;
  model: string;
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
  created_at: string;
}

/** LLM calls written straight into a server's (SQLite) database: usage to show without an LLM to call. */
export function insertLlmCalls(dataDir: string, calls: LlmCallFields[]) {
  const database = new SQLite(path.join(dataDir, 'agent-console.db'));
  try {
    const insert = database.prepare(
      `INSERT INTO llm_calls (user_id, conversation_id, model, status, prompt_tokens, completion_tokens, cache_read_tokens, cost, created_at)
       VALUES (@user_id, @conversation_id, @model, 200, @prompt_tokens, @completion_tokens, 0, @cost, @created_at)`,
    );
    database.transaction(() => {
      for (const call of calls) insert.run(call);
    })();
  } finally {
    database.close();
  }
}
