import { msg } from '@lingui/core/macro';
import { NotFound } from '../domain-errors';
import type { LlmCallsStore, NewLlmCall } from '../store/llm-calls-store';
import type { Subject } from './caller';
import { authorize } from './decide';

/** LLM calls as `subject` may record them (see server/authz/policy.ts). */
export class LlmCallRecords {
  constructor(
    private readonly store: LlmCallsStore,
    private readonly subject: Subject,
  ) {}

  async insert(call: NewLlmCall): Promise<void> {
    authorize(
      this.subject,
      'llm_call',
      'create',
      { ownerId: call.user_id },
      () => new NotFound(msg`Conversation ${call.conversation_id} not found`),
    );
    await this.store.insert(call);
  }
}
