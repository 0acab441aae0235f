import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { isAdminRole } from '../../src/contract/roles';
import type { Identities } from '../services/team/identities';
import { sessionKeyCheck } from '../session-key';
import { givenKey, keyHolder } from './auth';

/**
 * The `onRequest` hook of `GET /metrics`: METRICS_TOKEN (when set), or the key of an owner or
 * admin (an API key, or the session key, the owner's), as `Authorization: Bearer` or
 * `X-Session-API-Key`. No key or a wrong one 401, a member's key 403. No session cookie: a
 * scraper has none, and a page has no use for the text.
 */
export function requireMetricsReader(sessionKey: string, identities: Identities, metricsToken: string | undefined) {
  const isMetricsToken = metricsToken === undefined ? () => false : sessionKeyCheck(metricsToken);
  const holderOf = keyHolder(sessionKey, identities);
  const admit = (reply: FastifyReply, done: HookHandlerDoneFunction, holder: Awaited<ReturnType<typeof holderOf>>) => {
    if (holder === 'wrong key') return void reply.status(401).send({ detail: 'Unauthorized' });
    if (!isAdminRole(holder.role))
      return void reply.status(403).send({ detail: 'Only owners and admins, or METRICS_TOKEN, can read the metrics' });
    done();
  };
  return (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const key = givenKey(request);
    if (key === undefined) return void reply.status(401).send({ detail: 'Unauthorized' });
    if (isMetricsToken(key)) return done();
    const holder = holderOf(key, request.ip);
    if (!(holder instanceof Promise)) return admit(reply, done, holder);
    holder.then((found) => admit(reply, done, found), done);
  };
}
