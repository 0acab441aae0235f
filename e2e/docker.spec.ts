import type Docker from 'dockerode';
import { DATA_DIR_LABEL } from '../server/sandboxes/docker/labels';
import { checkEngine, dockerFromEnv } from '../server/sandboxes/docker/engine';
import { expect, test } from './support/fixtures';

/*
 * A conversation in a Docker sandbox (SANDBOX_RUNTIME=docker), seen in the console: the demo
 * model's terminal action runs in the container and its output arrives on the page. Collected
 * only when a Docker engine responds; with CI=1 it must (`npm run test:docker` sets one up).
 */

const docker = dockerFromEnv(process.env.DOCKER_HOST);
const engineResponds = await checkEngine(docker).then(
  () => true,
  () => false,
);
if (!engineResponds && process.env.CI) throw new Error('CI=1 but no Docker engine responds: e2e/docker.spec.ts must run');
if (!engineResponds) console.warn('e2e/docker.spec.ts: no Docker engine responds, its test is not collected (npm run test:docker runs it)');

const ours = (dataDir: string) => JSON.stringify({ label: [`${DATA_DIR_LABEL}=${dataDir}`] });

/** Removes the containers and volumes of the test's server, also when the test failed. */
async function removeContainers(engine: Docker, dataDir: string): Promise<void> {
  for (const container of await engine.listContainers({ all: true, filters: ours(dataDir) })) {
    await engine.getContainer(container.Id).remove({ force: true });
  }
  for (const volume of (await engine.listVolumes({ filters: ours(dataDir) })).Volumes ?? []) await engine.getVolume(volume.Name).remove();
}

if (engineResponds) {
  test.describe('a Docker sandbox', () => {
    test.use({ serverEnv: { SANDBOX_RUNTIME: 'docker' } });
    test.afterEach(async ({ server }) => removeContainers(docker, server.dataDir));

    test('the console says sandboxes are containers, shows the image of each spec, and which Settings the Docker runtime uses', async ({
      page,
      signIn,
    }) => {
      await signIn(page);
      // On Docker the images and the resource factor are used.
      const setting = (label: string) => page.locator('input').and(page.getByLabel(label, { exact: true }));
      await expect(setting('Sandbox runtime image')).toHaveAccessibleDescription(/^New Docker sandboxes of the default spec start from it/);
      await expect(setting('Sandbox runtime image')).not.toHaveAccessibleDescription(/Not used/);
      await expect(setting('Remote runtime resource factor')).not.toHaveAccessibleDescription(/Not used/);
      await expect(setting('Sandbox base image')).toHaveAccessibleDescription(
        /^New Docker sandboxes of the default spec run an image built on it/,
      );
      await expect(setting('Sandbox base image')).not.toHaveAccessibleDescription(/Not used/);
      const nav = page.getByRole('navigation', { name: 'Main' });
      await nav.getByRole('link', { name: 'Sandboxes', exact: true }).click();
      await expect(page.getByTestId('sandbox-runtime')).toHaveText(
        "Runtime: Docker — each sandbox is a container on the server's Docker engine.",
      );

      await nav.getByRole('link', { name: 'Sandbox specs' }).click();
      const specs = page.getByRole('table', { name: 'Sandbox specs' });
      await expect(specs.getByRole('columnheader').nth(1)).toHaveText('Image');
      const agentServer = specs.getByRole('row').filter({ hasText: 'agent-server' });
      await expect(agentServer.getByRole('cell').nth(1)).toHaveText(/^agent-console-sandbox:[0-9a-f]{16}$/);
      await agentServer.getByRole('button', { name: 'Details of agent-server' }).click();
      const drawer = page.getByRole('dialog', { name: 'Spec agent-server' });
      await expect(drawer.getByRole('heading', { name: 'Image' })).toBeVisible();
      await expect(drawer).toContainText('/usr/bin/node /opt/agent-server/main.js');
    });

    test("the demo model's events from a conversation in a container arrive on its page", async ({ page, signIn, api, server }) => {
      test.setTimeout(180_000);
      expect((await api('/api/settings', { method: 'POST', body: { llm_model: 'demo/scripted' } })).status).toBe(200);
      await signIn(page);
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
      await page.getByRole('button', { name: 'New conversation' }).first().click();
      const dialog = page.getByRole('dialog', { name: 'New conversation' });
      await dialog.getByLabel('What should the agent do?').fill('Look around the container');
      await dialog.getByRole('button', { name: 'Start' }).click();
      await expect(page.getByRole('heading', { name: 'Look around the container', level: 1 })).toBeVisible({ timeout: 90_000 });

      // The sandbox is a container of this server's.
      const containers = await docker.listContainers({ filters: ours(server.dataDir) });
      expect(containers).toHaveLength(1);

      const ls = page.getByRole('group', { name: 'Action: ls -la' });
      await expect(ls).toContainText('Done · exit code 0', { timeout: 60_000 });
      await ls.getByRole('button', { name: 'Output' }).click();
      await expect(ls.locator('pre')).toContainText('total');
      const log = page.getByRole('log', { name: 'Conversation events' });
      await expect(log.getByRole('group', { name: "Agent's final message" })).toBeVisible({ timeout: 60_000 });
    });
  });
}
