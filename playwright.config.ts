import fs from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

// Debian's old headless shell (`apt-get install chromium-headless-shell`, the same Blink and V8
// without the full browser's window and compositor) when it is there: on two cores the browser is
// most of an e2e run's work, and the shell does less of it. Debian's full Chromium otherwise.
const DEBIAN_CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((file) => fs.existsSync(file));

// E2e tests drive Debian's Chromium (never a downloaded browser) against the real server, built
// once before them, which each test starts on a temporary data dir and a free port (see
// e2e/support/fixtures.ts).
const chromium = {
  ...devices['Desktop Chrome'],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? DEBIAN_CHROMIUM,
    args: [
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      // V8's interpreter only: a test's page lives seconds, too short for what the baseline and
      // optimizing compilers make to pay back their compiling.
      '--js-flags=--no-sparkplug --no-maglev --no-opt',
    ],
  },
};

export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/build.ts',
  // Three on two cores: a test mostly waits (for its page, its server, its sandboxes); with two at
  // once the run used about half of both cores.
  workers: 3,
  // Each test starts its own server, so a file's tests need not share a worker: dealt out one by
  // one, the workers end together instead of one finishing a long file (accessibility's) alone.
  fullyParallel: true,
  forbidOnly: true,
  retries: 0,
  // A limit that catches a hang, not a measure of speed: a test that fails only on a loaded
  // machine proves nothing.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    // Locally, DOM snapshots, network and console of a failed test; not the screencast a trace
    // records by default, which costs the browser more than the tests themselves on two cores. On
    // CI, where only the log is read, no trace at all: recording one slows every test that passes.
    // The failure screenshot and the page's ARIA snapshot stay.
    trace: process.env.CI ? 'off' : { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'debian-chromium', use: chromium, testIgnore: 'docker.spec.ts' },
    // Alone, after the others: a container's network interfaces coming and going make Chromium
    // drop the requests under way in every page (net::ERR_NETWORK_CHANGED), another test's too.
    // `npm run test:docker` runs it with --no-deps.
    { name: 'docker', use: chromium, testMatch: 'docker.spec.ts', dependencies: ['debian-chromium'] },
  ],
});
