// `npm run screenshots [dir]`: starts the demo, shows each page in Chromium in the light and the
// dark scheme, and writes a PNG of each into `dir` (or $SCREENSHOTS_DIR, default docs/screenshots).
// With DEMO_SIGN_IN_LINK it uses that demo, already running, instead (the e2e suite does).
import path from 'node:path';
import { chromium } from '@playwright/test';
import config from '../playwright.config';
import { connectToDemo, type DemoConnection, startDemo } from './demo-process';
import { takeScreenshots } from './screenshot-pages';

async function shoot(demo: DemoConnection, outDir: string): Promise<string[]> {
  // Debian's Chromium, as the e2e suite launches it.
  const browser = await chromium.launch(config.projects?.[0]?.use?.launchOptions);
  try {
    return await takeScreenshots(browser, demo, outDir, (line) => console.log(line));
  } finally {
    await browser.close();
  }
}

async function main(): Promise<void> {
  const outDir = path.resolve(process.argv[2] ?? process.env.SCREENSHOTS_DIR ?? 'docs/screenshots');
  const running = process.env.DEMO_SIGN_IN_LINK;
  if (running) {
    console.log(`Wrote ${(await shoot(connectToDemo(running), outDir)).length} screenshots to ${outDir}`);
    return;
  }
  const demo = await startDemo();
  // The demo's sandboxes outlive it unless it stops on its own: it always does, also when a shot failed.
  const shot = await shoot(demo, outDir).then(
    (files) => ({ files }),
    (error: unknown) => ({ error }),
  );
  const code = await demo.stop();
  if ('error' in shot) throw shot.error;
  if (code !== 0) throw new Error(`The demo did not stop cleanly (exit code ${code}):\n${demo.output()}`);
  console.log(`Wrote ${shot.files.length} screenshots to ${outDir}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
