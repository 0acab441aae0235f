import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { signInLinkFor } from './sign-in-link';

const app = Fastify();
afterAll(() => app.close());

describe('signInLinkFor', () => {
  it('names the port the server listens on, shows a wildcard host as loopback, and carries a key in the fragment only', async () => {
    await app.listen({ host: '127.0.0.1', port: 0 });
    const { port } = app.server.address() as AddressInfo;
    expect(signInLinkFor(app, '127.0.0.1', 0, 'k1')).toBe(`http://127.0.0.1:${port}/#key=k1`);
    expect(signInLinkFor(app, '0.0.0.0', 0, undefined)).toBe(`http://127.0.0.1:${port}/`);
    expect(signInLinkFor(app, '::1', 0, undefined)).toBe(`http://[::1]:${port}/`);
  });
});
