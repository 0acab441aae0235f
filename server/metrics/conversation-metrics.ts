import { Gauge, type Registry } from 'prom-client';
import { EXECUTION_STATUSES } from '../../src/contract/conversations';
import type { EventCollector } from '../services/events/event-collector';
import type { EventService } from '../services/events/event-service';

/** Before its agent server has sent one. */
const UNKNOWN_STATUS = 'unknown';

/**
 * The conversations whose sandboxes run here, and how far behind the collection of their events
 * is, read from the event collector at each scrape.
 */
export function conversationMetrics(registry: Registry, collector: EventCollector, events: EventService): void {
  const registers = [registry];
  new Gauge({
    name: 'agent_console_running_conversations',
    help: `Conversations whose sandbox runs on this instance (their events are collected here), by the execution status their agent server last sent: "running" while the agent works, "${UNKNOWN_STATUS}" before it sent one.`,
    labelNames: ['execution_status'],
    registers,
    collect() {
      const counts = new Map<string, number>([...EXECUTION_STATUSES, UNKNOWN_STATUS].map((status) => [status, 0]));
      for (const id of collector.progress().conversations) {
        const status = events.executionStatus(id) ?? UNKNOWN_STATUS;
        counts.set(status, (counts.get(status) ?? 0) + 1);
      }
      for (const [execution_status, count] of counts) this.set({ execution_status }, count);
    },
  });
  new Gauge({
    name: 'agent_console_event_collection_lag_seconds',
    help: "How far behind the collection of events is on this instance: of the conversations of its running sandboxes, the longest one has gone with events possibly not stored, since its event socket closed or was not open yet, or since the oldest event received and not stored yet. 0 when every socket is open and all received is stored; a socket that cannot connect keeps it growing (alert when it stays above a minute: the conversation's events do not reach the console).",
    registers,
    collect() {
      this.set(collector.progress().lagMs / 1000);
    },
  });
  new Gauge({
    name: 'agent_console_event_collection_last_round_timestamp_seconds',
    help: 'When event collection last looked for conversations to connect to without failing (Unix time; every half second when well). time() minus it growing means collection is stuck, as a database that does not answer makes it.',
    registers,
    collect() {
      const { lastRoundAt } = collector.progress();
      if (lastRoundAt !== undefined) this.set(lastRoundAt / 1000);
    },
  });
}
