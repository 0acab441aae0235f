import fs from 'node:fs';
import type { AgentEvent } from '../../src/contract/events';

/**
 * One conversation's events, in order, each once: held in memory and appended to a JSONL file
 * (one event a line) so a restarted agent server can restore them. Events are masked before
 * they get here (see `Conversation.append`).
 */
export class EventLog {
  readonly #events: AgentEvent[];
  readonly #ids: Set<string>;

  constructor(
    private readonly file: string,
    events: AgentEvent[] = [],
  ) {
    this.#events = events;
    this.#ids = new Set(events.map((event) => event.id));
  }

  /** The events stored in `file`; a torn last line (a crash mid-write) is left out. */
  static read(file: string): AgentEvent[] {
    if (!fs.existsSync(file)) return [];
    const events: AgentEvent[] = [];
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line.trim()) continue;
      try {
        events.push(JSON.parse(line) as AgentEvent);
      } catch {
        break;
      }
    }
    return events;
  }

  append(event: AgentEvent): void {
    if (this.#ids.has(event.id)) return;
    // Synchronous, so the file holds the events in the order they happened.
    fs.appendFileSync(this.file, `${JSON.stringify(event)}\n`, { mode: 0o600 });
    this.#ids.add(event.id);
    this.#events.push(event);
  }

  all(): readonly AgentEvent[] {
    return this.#events;
  }
}
