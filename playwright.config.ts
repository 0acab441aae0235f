import { defineConfig, devices } from '@playwright/test';

// E2e tests drive Debian's Chromium (never a downloaded browser) against the real server, built
// once before them, which each test starts on a temporary data dir and a free port (see
// e2e/support/fixtures.ts).
export default defineConfig({
  testDir: './e2e',
  globalSetup: './e2e/support/build.ts',
  workers: 1, // two cores: one browser and one server at a time
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'debian-chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
          args: [
            '--disable-gpu',
            '--disable-dev-shm-usage',
            '--disable-quic',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
          ],
        },
      },
    },
  ],
});
