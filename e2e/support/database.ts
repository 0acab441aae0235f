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
