/*
 * Every page of the console, once. The router (router.tsx) maps each to its component; the
 * navigation, the Settings tabs and the keyboard shortcuts link them from here; the build's page
 * preloads and size budgets, the screenshots, the bench and the e2e tests list them from here.
 * Plain data, so node scripts import it without React.
 */

/** A layout route pages share. */
export type LayoutName = 'settings';

export interface ConsolePage {
  /** The router's path (`:name` stands for one segment). */
  path: string;
  /** Its heading, and what a link to it says. */
  title: string;
  /** Linked from the main navigation. */
  inNavigation?: true;
  /** Its label among the Settings tabs, where it is one. */
  tab?: string;
  /** The layout route it shows in. */
  layout?: LayoutName;
}

const pages = {
  settings: { path: '/settings', title: 'Settings', inNavigation: true, tab: 'General', layout: 'settings' },
  mcp: { path: '/settings/mcp', title: 'MCP servers', tab: 'MCP servers', layout: 'settings' },
  apiKeys: { path: '/settings/api-keys', title: 'API keys', tab: 'API keys', layout: 'settings' },
  teamDefaults: { path: '/settings/team', title: 'Team defaults', tab: 'Team defaults', layout: 'settings' },
  git: { path: '/git', title: 'Git & secrets', inNavigation: true },
  conversations: { path: '/conversations', title: 'Conversations', inNavigation: true },
  conversation: { path: '/conversations/:conversationId', title: 'Conversation' },
  sandboxes: { path: '/sandboxes', title: 'Sandboxes', inNavigation: true },
  specs: { path: '/sandbox-specs', title: 'Sandbox specs', inNavigation: true },
  users: { path: '/users', title: 'Users', inNavigation: true },
  audit: { path: '/audit', title: 'Audit log', inNavigation: true },
  usage: { path: '/usage', title: 'Usage', inNavigation: true },
} as const satisfies Record<string, ConsolePage>;

export type PageName = keyof typeof pages;

export const PAGES: Readonly<Record<PageName, ConsolePage>> = pages;

/** Every page, in the navigation's order. */
export const PAGE_NAMES = Object.keys(PAGES) as PageName[];

/** The pages the main navigation links. */
export type NavigationPageName = { [N in PageName]: (typeof pages)[N] extends { inNavigation: true } ? N : never }[PageName];
export const NAVIGATION_PAGES = PAGE_NAMES.filter((name): name is NavigationPageName => PAGES[name].inNavigation === true);

/** Where `/` leads. */
export const HOME: PageName = 'settings';

/** A page's URL, its `:name` segments filled in from `params`. */
export function pageUrl(name: PageName, params: Record<string, string> = {}): string {
  return PAGES[name].path.replace(/:(\w+)/g, (segment, param: string) => encodeURIComponent(params[param] ?? segment));
}

/*
 * What each page loads on demand, by source path: its module, then what a first visit always
 * loads beside it. The build's page preloads and size budgets and the e2e tests read it; the app
 * does not (router.tsx imports each module itself), so none of it is in the app's download.
 */
export const PAGE_MODULES: Record<PageName, readonly [string, ...string[]]> = {
  settings: ['src/features/settings/settings-page.tsx'],
  mcp: ['src/features/mcp-servers/mcp-servers-page.tsx'],
  apiKeys: ['src/features/api-keys/api-keys-page.tsx'],
  teamDefaults: ['src/features/team-defaults/team-defaults-page.tsx'],
  git: ['src/features/git-secrets/git-secrets-page.tsx'],
  // Its first data's prefetch (router.tsx).
  conversations: ['src/features/conversations/list/conversations-page.tsx', 'src/features/conversations/list/prefetch.ts'],
  conversation: ['src/features/conversations/detail/conversation-page.tsx', 'src/features/conversations/detail/event-timeline.tsx'],
  sandboxes: ['src/features/sandboxes/sandboxes-page.tsx'],
  specs: ['src/features/sandboxes/specs-page.tsx'],
  users: ['src/features/users/users-page.tsx'],
  audit: ['src/features/audit/audit-page.tsx'],
  usage: ['src/features/usage/usage-page.tsx'],
};

export const LAYOUT_MODULES: Record<LayoutName, string> = { settings: 'src/app/settings-layout.tsx' };

/** What a first visit to a page loads on demand: its layout's module, then its own. */
export function firstVisitModules(name: PageName): string[] {
  const { layout } = PAGES[name];
  return [...(layout ? [LAYOUT_MODULES[layout]] : []), ...PAGE_MODULES[name]];
}
