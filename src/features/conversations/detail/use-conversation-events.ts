import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useReducer } from 'react';
import { pollEvents, type StreamConnection, type StreamFrame, streamEvents } from '../../../api/events';
import type { AppConversation } from '../../../contract/conversations';
import { utcEventTime } from '../../../contract/events';
import { keptOutput } from '../../../contract/running-output';
import { conversationKeys } from '../../../queries/conversations';
import { serverFeaturesQuery } from '../../../queries/server-capabilities';
import { receive, type ReceivedEvent } from './timeline';

interface EventsState {
  events: ReceivedEvent[];
  ids: ReadonlySet<string>;
  /** Partial text of replies still streaming, by LLM response id, in the order they began. */
  streaming: ReadonlyMap<string, string>;
  /** Output of commands still running, by their action's id (the end of it, when it is long). */
  terminal: ReadonlyMap<string, string>;
  connection: StreamConnection;
}

type EventsAction =
  | { type: 'reset' }
  /** The frames one chunk of the stream held: applied together, so a long history is not copied once per event. */
  | { type: 'frames'; frames: readonly StreamFrame[] }
  | { type: 'connection'; connection: StreamConnection }
  /** The agent stopped running: a reply cut short (a pause, an LLM failure) never gets its message. */
  | { type: 'stopped' };

const initial: EventsState = { events: [], ids: new Set(), streaming: new Map(), terminal: new Map(), connection: { state: 'connecting' } };

/**
 * Events mostly come in the order they happened; a poll of OpenHands gives those of one second by
 * kind name, and an event read again after a page boundary comes late: each goes where its time says.
 */
function insertByTime(events: ReceivedEvent[], received: ReceivedEvent) {
  // In UTC to the microsecond, these compare as text: events of one millisecond keep their order too.
  const time = utcEventTime(received.event.timestamp);
  let at = events.length;
  while (at > 0 && time !== undefined && time < (utcEventTime(events[at - 1]!.event.timestamp) ?? '')) at -= 1;
  events.splice(at, 0, received);
}

function applyFrames(state: EventsState, frames: readonly StreamFrame[]): EventsState {
  const events = [...state.events];
  const ids = new Set(state.ids);
  const streaming = new Map(state.streaming);
  const terminal = new Map(state.terminal);
  for (const frame of frames) {
    if (frame.type === 'terminal') {
      const actionId = frame.output.action_id;
      terminal.set(actionId, keptOutput(terminal.get(actionId), frame.output));
    } else if (frame.type === 'delta') {
      const { llm_response_id: responseId, delta } = frame.delta;
      streaming.set(responseId, (streaming.get(responseId) ?? '') + delta);
    } else if (frame.type === 'event' && !ids.has(frame.event.id)) {
      ids.add(frame.event.id);
      insertByTime(events, receive(frame.event));
      // Its stored message (or action) replaces the partial text of the same reply.
      const responseId = (frame.event as { llm_response_id?: unknown }).llm_response_id;
      if (typeof responseId === 'string') streaming.delete(responseId);
      // Its observation has the command's whole output.
      const actionId = (frame.event as { action_id?: unknown }).action_id;
      if (typeof actionId === 'string') terminal.delete(actionId);
    }
  }
  return { ...state, events, ids, streaming, terminal };
}

function reduce(state: EventsState, action: EventsAction): EventsState {
  if (action.type === 'reset') return initial;
  if (action.type === 'frames') return applyFrames(state, action.frames);
  if (action.type === 'stopped') return state.streaming.size === 0 ? state : { ...state, streaming: new Map() };
  // Partial text (or output) from before a drop would miss what came meanwhile: what is stored replaces it.
  const open = action.connection.state === 'open';
  return {
    ...state,
    connection: action.connection,
    streaming: open ? new Map<string, string>() : state.streaming,
    terminal: open ? new Map<string, string>() : state.terminal,
  };
}

/**
 * A conversation's events, live: every stored event, then each new one as it happens, with the
 * partial text of a reply while it streams. State changes on the stream (execution status,
 * metrics) go straight into the cached conversation, so its badges and cost follow too.
 */
export function useConversationEvents(conversationId: string) {
  const queryClient = useQueryClient();
  const [state, dispatch] = useReducer(reduce, initial);
  // Which way to read is known once the server's features are; until then nothing is read.
  const features = useQuery(serverFeaturesQuery()).data;
  const follow = features === undefined ? undefined : features.eventStream ? streamEvents : pollEvents;

  useEffect(() => {
    if (!follow) return;
    dispatch({ type: 'reset' });
    const controller = new AbortController();
    let buffer: StreamFrame[] = [];
    let stateWrites = Promise.resolve();
    const flush = () => {
      const frames = buffer;
      buffer = [];
      if (!controller.signal.aborted) dispatch({ type: 'frames', frames });
    };
    void follow(conversationId, {
      signal: controller.signal,
      onConnection: (connection) => dispatch({ type: 'connection', connection }),
      onFrame: (frame) => {
        if (frame.type === 'state') {
          const { execution_status, metrics } = frame.state;
          const key = conversationKeys.detail(conversationId);
          // A read of the conversation sent before this change would answer with what it replaced:
          // it is cancelled (and settled) before the change is written, in the order changes came,
          // and asked again after it, as what else it would have brought (a new sandbox) counts. The
          // server holds a state before it sends it, so the new read has this one.
          stateWrites = stateWrites
            .then(async () => {
              const reading = queryClient.isFetching({ queryKey: key }) > 0;
              await queryClient.cancelQueries({ queryKey: key });
              return reading;
            })
            .then((reading) => {
              if (controller.signal.aborted) return;
              queryClient.setQueryData<AppConversation>(key, (current) =>
                current
                  ? { ...current, execution_status: execution_status ?? current.execution_status, metrics: metrics ?? current.metrics }
                  : current,
              );
              if (reading) void queryClient.invalidateQueries({ queryKey: key });
            });
          if (execution_status && execution_status !== 'running') {
            flush();
            dispatch({ type: 'stopped' });
          }
        } else if (buffer.push(frame) === 1) queueMicrotask(flush);
      },
    });
    return () => controller.abort();
  }, [conversationId, queryClient, follow]);

  return state;
}
