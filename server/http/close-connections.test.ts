import { sessionKeyCaller } from '../authz/caller';
import { afterEach, expect, it } from 'vitest';
import { closeDuringRequest, requestLog } from '../testing/close-during-request';
import { startTestApp, TEST_SESSION_KEY, type TestApp } from '../testing/test-app';

let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

it('closes without waiting for the browser: a request in flight when the close begins is answered, then its connection ends', async () => {
  const { destination, received } = requestLog();
  app = await startTestApp({ listen: true, logStream: destination });
  const status = await closeDuringRequest({
    url: `${app.address}/api/settings`,
    headers: { 'x-session-api-key': TEST_SESSION_KEY },
    body: JSON.stringify({ git_user_name: 'saved as the server stopped' }),
    received,
    close: () => app!.app.close(),
  });
  expect(status).toBe(200);
  expect(await app.services.settings.read(sessionKeyCaller)).toMatchObject({ git_user_name: 'saved as the server stopped' });
});
