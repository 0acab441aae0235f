import { msg } from '@lingui/core/macro';
import { SESSION_KEY_HEADER } from '../../session-key';
import { type Caller, OWNER_ID } from '../../authz/caller';

/**
 * Whom a call between instances is made for: the instance asked acts as that user (their role,
 * what they may see), not as the session key's owner. Taken only with the session key.
 */
export const CALLER_HEADER = 'X-Agent-Console-Caller';
import { Conflict, NotFound, Unavailable, verbatim } from '../../domain-errors';
import type { Owner } from './instance-registry';

const TIMEOUT_MS = 15_000;

/**
 * Calls another instance's API about a sandbox it owns (every instance takes the same session
 * key), for `caller` (the owner when absent). Its refusals come back as the same domain errors;
 * no response is `Unavailable`.
 */
export class OwnerClient {
  constructor(private readonly sessionKey: string) {}

  async call<T>(
    owner: Owner & { reachable: true },
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    body?: unknown,
    caller?: Caller,
  ): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${owner.address}/api${path}`, {
        method,
        headers: {
          [SESSION_KEY_HEADER]: this.sessionKey,
          ...(caller && caller.userId !== OWNER_ID ? { [CALLER_HEADER]: caller.userId } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(TIMEOUT_MS),
        // A redirect would carry the session key to an address that is not an instance.
        redirect: 'error',
      });
    } catch (error) {
      const reason = (error as Error).message;
      throw new Unavailable(msg`Its server instance ${owner.id} at ${owner.address} does not respond: ${reason}`);
    }
    const payload = (await response.json().catch(() => null)) as { detail?: unknown } | null;
    if (response.ok) return payload as T;
    const detail = typeof payload?.detail === 'string' ? payload.detail : `HTTP ${response.status}`;
    if (response.status === 404) throw new NotFound(verbatim(detail));
    if (response.status === 409) throw new Conflict(verbatim(detail));
    throw new Unavailable(msg`Its server instance ${owner.id} responded: ${detail}`);
  }
}
