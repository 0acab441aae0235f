import { sessionKeyCaller } from '../../authz/caller';
import { afterEach, describe, expect, it } from 'vitest';
import { conversationRecord } from '../../testing/conversation-records';
import { shellSpec } from '../../testing/sandbox-helpers';
import { startTestApp, type TestApp } from '../../testing/test-app';

/*
 * A server stopped (SIGKILL) half-way through a conversation's start or delete leaves a sandbox no
 * conversation uses; the next start deletes it, and nothing else.
 */

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});

describe('sandboxes left by a conversation start or delete', () => {
  it('are deleted at the next start; those a conversation uses, and those started on their own, stay', async () => {
    const t = await startTestApp({ sandboxSpecs: [shellSpec('idle', 'exec sleep 600')] });
    apps.push(t);
    const start = async (forConversation?: string) =>
      (await t.services.sandboxes.start(sessionKeyCaller, 'idle', { forConversation })).sandbox.id;
    const leftByStart = await start('a'.repeat(32));
    const ofLiveConversation = await start('b'.repeat(32));
    await t.db
      .insertInto('app_conversations')
      .values(conversationRecord({ id: 'b'.repeat(32), sandbox_id: ofLiveConversation, sandbox_created: 1 }))
      .execute();
    // Made for a conversation since deleted, and used by another one started into it.
    const shared = await start('c'.repeat(32));
    await t.db
      .insertInto('app_conversations')
      .values(conversationRecord({ id: 'd'.repeat(32), sandbox_id: shared }))
      .execute();
    const own = await start();

    expect(await t.services.conversations.removeLeftoverSandboxes()).toBe(1);
    const left = (await t.services.sandboxes.search(sessionKeyCaller, { limit: 100 })).items.map((sandbox) => sandbox.id);
    expect(left.sort()).toEqual([ofLiveConversation, shared, own].sort());
    expect(left).not.toContain(leftByStart);
  });
});
