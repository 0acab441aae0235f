import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** Starts a conversation from the Conversations page (with the demo model when `useDemo`) and waits for its page. */
export async function startConversation(page: Page, message: string, { useDemo }: { useDemo: boolean }) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Conversations' }).click();
  await page.getByRole('button', { name: 'New conversation' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'New conversation' });
  if (useDemo) {
    // No model in Settings: the dialog says how to set one, or offers the demo.
    await expect(dialog.getByRole('link', { name: 'Settings › LLM' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Use the demo model' }).click();
    await expect(dialog.getByLabel('LLM model')).toHaveValue('demo/scripted');
  }
  await dialog.getByLabel('What should the agent do?').fill(message);
  await dialog.getByRole('button', { name: 'Start' }).click();
  await expect(page.getByRole('heading', { name: message, level: 1 })).toBeVisible({ timeout: 60_000 });
}

/** An action on the timeline, by what it does (`ls -la`, `Create demo-notes.md`). */
export const action = (page: Page, name: string | RegExp) =>
  page.getByRole('group', { name: typeof name === 'string' ? `Action: ${name}` : name });
