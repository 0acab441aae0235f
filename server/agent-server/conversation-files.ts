import fs from 'node:fs';
import path from 'node:path';
import type { AgentConversationInfo } from './contract';
import type { AgentEvent } from '../../src/contract/events';
import { EventLog } from './event-log';

/**
 * Where a conversation lives on disk, under the agent server's working directory (the sandbox's
 * home): `conversations/<id hex>/events.jsonl` and `meta.json` (its info: never the LLM key or
 * a secret value, which only the start request carries).
 */
export class ConversationFiles {
  readonly #dir: string;

  constructor(root: string, id: string) {
    this.#dir = path.join(root, 'conversations', id);
  }

  get eventsFile(): string {
    return path.join(this.#dir, 'events.jsonl');
  }

  exists(): boolean {
    return fs.existsSync(path.join(this.#dir, 'meta.json'));
  }

  create(): EventLog {
    fs.mkdirSync(this.#dir, { recursive: true, mode: 0o700 });
    return new EventLog(this.eventsFile);
  }

  restore(): { info: AgentConversationInfo; log: EventLog } {
    const info = JSON.parse(fs.readFileSync(path.join(this.#dir, 'meta.json'), 'utf8')) as AgentConversationInfo;
    const events: AgentEvent[] = EventLog.read(this.eventsFile);
    return { info, log: new EventLog(this.eventsFile, events) };
  }

  writeInfo(info: AgentConversationInfo): void {
    const file = path.join(this.#dir, 'meta.json');
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(info), { mode: 0o600 });
    fs.renameSync(`${file}.tmp`, file);
  }
}
