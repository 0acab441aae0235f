import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import type { PageName } from './pages';

/**
 * What the navigation, the Settings tabs and the error pages call each page, in the user's
 * language. (pages.ts keeps the English title for the build's scripts, which have no catalogs.)
 */
export const PAGE_TITLES: Record<PageName, MessageDescriptor> = {
  settings: msg`Settings`,
  mcp: msg`MCP servers`,
  apiKeys: msg`API keys`,
  teamDefaults: msg`Team defaults`,
  git: msg`Git & secrets`,
  conversations: msg`Conversations`,
  conversation: msg`Conversation`,
  sandboxes: msg`Sandboxes`,
  specs: msg`Sandbox specs`,
  users: msg`Users`,
  audit: msg`Audit log`,
  usage: msg`Usage`,
};

/** A Settings sub-page's tab, where it differs from its title. */
export const TAB_LABELS: Partial<Record<PageName, MessageDescriptor>> = { settings: msg`General` };
