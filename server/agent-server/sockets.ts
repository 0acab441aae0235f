import type http from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { conversationIdSchema, sendMessageRequestSchema, statsOf } from '../../src/contract/conversations';
import { SESSION_KEY_HEADER } from '../session-key';
import type { Conversations } from './conversations';
import { stateUpdate } from './event-factory';

const PATH = /^\/sockets\/events\/([^/]+)$/;

/**
 * The event WebSocket, `/sockets/events/{id}`, as the agent SDK's server has it: the key in the
 * `X-Session-API-Key` header or the `session_api_key` query, checked before the upgrade (403
 * otherwise, as the SDK's close before accepting is sent), close 4004 for an unknown
 * conversation; first the conversation's `full_state`, then with `resend_all=true`
 * every stored event in order, then live frames. A text frame `{role, content}` is a user
 * message that runs the agent; any other frame is ignored, and a message that cannot be taken
 * (its event cannot be stored) closes the socket with 1011.
 */
export function attachEventSockets(
  server: http.Server,
  conversations: Conversations,
  isSessionKey: (key: string | undefined) => boolean,
): void {
  const sockets = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  server.on('upgrade', (request: http.IncomingMessage, socket: Duplex, head: Buffer) => {
    // Whatever a client sends, only this connection may end: nothing here throws.
    socket.on('error', () => socket.destroy());
    const url = URL.parse(request.url ?? '/', 'http://agent-server');
    if (!url) return refuse(socket, 400, 'Bad Request');
    const match = PATH.exec(url.pathname);
    if (!match) return refuse(socket, 404, 'Not Found');
    const header = request.headers[SESSION_KEY_HEADER.toLowerCase()];
    const key = (typeof header === 'string' ? header : undefined) ?? url.searchParams.get('session_api_key') ?? undefined;
    if (!isSessionKey(key)) return refuse(socket, 403, 'Forbidden');
    const id = conversationIdSchema.safeParse(decodedSegment(match[1] ?? ''));
    sockets.handleUpgrade(request, socket, head, (ws) => {
      const conversation = id.success ? conversations.get(id.data) : undefined;
      if (!conversation) return ws.close(4004, 'Conversation not found');
      follow(ws, conversation, url.searchParams.get('resend_all') === 'true');
    });
  });
}

/** An HTTP response instead of the upgrade, and the connection closed. */
function refuse(socket: Duplex, status: number, reason: string): void {
  socket.end(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}

/** A path segment percent-decoded, or as it is when it does not decode. */
function decodedSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function follow(ws: WebSocket, conversation: NonNullable<ReturnType<Conversations['get']>>, resendAll: boolean): void {
  const send = (frame: unknown) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(frame));
  };
  // One synchronous block: no event can land between the replay and the live frames.
  // With the SDK's `stats` beside our `metrics`: OpenHands' web client reads the cost there.
  const { info } = conversation;
  send(stateUpdate('full_state', info.metrics ? { ...info, stats: statsOf(info.metrics) } : info));
  if (resendAll) for (const event of conversation.events()) send(event);
  const unsubscribe = conversation.subscribe(send);
  ws.on('close', unsubscribe);
  ws.on('error', unsubscribe);
  ws.on('message', (data, isBinary) => {
    if (isBinary) return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(String(data));
    } catch {
      return;
    }
    const message = sendMessageRequestSchema.safeParse(parsed);
    if (!message.success) return;
    // A throw here would be uncaught and end the agent server: only this socket goes.
    try {
      conversation.sendMessage({ ...message.data, run: true });
    } catch (error) {
      console.error(
        `agent-server: a message on the socket of conversation ${conversation.id} failed:`,
        conversation.mask(String((error as Error).message)),
      );
      ws.close(1011, 'The message could not be handled.');
    }
  });
}
