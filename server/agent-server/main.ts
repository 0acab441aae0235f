// The agent server: what runs inside each sandbox. It responds to health checks, holds the sandbox's
// conversations and runs their agent. Built to plain JavaScript files with its dependencies
// (`npm run build:agent`, build/agent-server/) so a sandbox starts in milliseconds, without node_modules.
import http from 'node:http';
import { SESSION_KEY_HEADER, sessionKeyCheck } from '../session-key';
import { OWNER_VARIABLE } from './contract';
import { Conversations } from './conversations';
import { agentServerCors, corsOriginsFromEnv } from './cors';
import { send } from './router';
import { agentRoutes } from './routes';
import { attachEventSockets } from './sockets';

const VERSION = '0.2.0';
const port = Number(process.env.PORT);
const sessionKey = process.env.SESSION_API_KEY ?? '';
// Loopback unless HOST says otherwise (in a container it listens on the port Docker publishes).
const host = process.env.HOST ?? '127.0.0.1';

if (!Number.isInteger(port) || port <= 0 || !sessionKey) {
  console.error('agent-server: PORT and SESSION_API_KEY must be set');
  process.exit(2);
}

const isSessionKey = sessionKeyCheck(sessionKey);
const conversations = new Conversations(process.cwd(), sessionKey);
const router = agentRoutes({ version: VERSION, startedAt: Date.now(), conversations, owner: process.env[OWNER_VARIABLE] || null });

const cors = agentServerCors(corsOriginsFromEnv(process.env.OH_ALLOW_CORS_ORIGINS));

const server = http.createServer((request, response) => {
  if (cors.handled(request, response)) return;
  const path = (request.url ?? '/').split('?', 1)[0];
  if (request.method === 'GET' && path === '/alive') return send(response, 200, { status: 'ok' });
  if (request.method === 'GET' && path === '/health') return send(response, 200, 'OK');
  if (!isSessionKey(request.headers[SESSION_KEY_HEADER.toLowerCase()])) return send(response, 401, { detail: 'Unauthorized' });
  router.handle(request, response).then(
    (handled) => {
      if (!handled) send(response, 404, { detail: 'Not Found' });
    },
    (error: unknown) => {
      console.error('agent-server: a request failed:', conversations.mask(String(error)));
      if (!response.headersSent) send(response, 500, { detail: 'Internal Server Error' });
      else response.destroy();
    },
  );
});
attachEventSockets(server, conversations, isSessionKey);

server.listen(port, host, () => console.log(`agent-server ${VERSION} listening on ${host}:${port} in ${process.cwd()}`));

// Anything a client sends that still escapes its handler costs that client its request, never the
// agent server: its conversations would be lost with it.
process.on('uncaughtException', (error) => console.error('agent-server: uncaught:', conversations.mask(String(error.stack ?? error))));
process.on('unhandledRejection', (reason) => console.error('agent-server: unhandled:', conversations.mask(String(reason))));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    console.log(`agent-server: ${signal}, shutting down`);
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 1000).unref();
  });
}
