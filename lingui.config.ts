import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, SOURCE_LOCALE } from './src/i18n/locales';

/** Features with a catalog of their own, loaded with their pages. */
const FEATURES = ['api-keys', 'audit', 'auth', 'git-secrets', 'mcp-servers', 'sandboxes', 'team-defaults', 'usage', 'users'];

/**
 * The contract's checks whose messages only these features show, in their catalogs; the rest
 * (`rules.ts`, the settings' own) are the shell's.
 */
const CONTRACT_CHECKS: Record<string, string[]> = {
  'api-keys': ['team.ts'],
  conversations: ['conversations.ts', 'suggested-tasks.ts'],
  'git-secrets': ['secrets.ts'],
  'mcp-servers': ['mcp.ts'],
  usage: ['usage.ts'],
  users: ['team.ts'],
};
const SHOWN_BY_FEATURES = [...new Set(Object.values(CONTRACT_CHECKS).flat())].map((file) => `<rootDir>/src/contract/${file}`);
const contractChecksOf = (feature: string) => (CONTRACT_CHECKS[feature] ?? []).map((file) => `<rootDir>/src/contract/${file}`);

/**
 * One catalog per feature, so a page downloads its own strings in the user's language and no
 * other page's (the sign-in screens' come with them); the shell's (layout, shared components,
 * the contract's checks) comes with the entry. The server has one of its own.
 */
export default defineConfig({
  sourceLocale: SOURCE_LOCALE,
  locales: [...CONSOLE_LOCALES],
  fallbackLocales: { default: SOURCE_LOCALE },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    ...FEATURES.map((feature) => ({
      path: `<rootDir>/src/features/${feature}/locales/{locale}`,
      include: [`<rootDir>/src/features/${feature}`, ...contractChecksOf(feature)],
      exclude: ['**/*.test.*'],
    })),
    // The Settings page, and its parts loaded after it with their own strings.
    {
      path: '<rootDir>/src/features/settings/locales/{locale}',
      include: ['<rootDir>/src/features/settings'],
      exclude: ['**/*.test.*', '<rootDir>/src/features/settings/deferred/**'],
    },
    {
      path: '<rootDir>/src/features/settings/deferred/locales/{locale}',
      include: ['<rootDir>/src/features/settings/deferred'],
      exclude: ['**/*.test.*'],
    },
    // The conversations list and a conversation each download their own part (and what both show).
    {
      path: '<rootDir>/src/features/conversations/list/locales/{locale}',
      include: [
        '<rootDir>/src/features/conversations/list',
        '<rootDir>/src/features/conversations/shared',
        ...contractChecksOf('conversations'),
      ],
      exclude: ['**/*.test.*'],
    },
    {
      path: '<rootDir>/src/features/conversations/detail/locales/{locale}',
      include: [
        '<rootDir>/src/features/conversations/detail',
        '<rootDir>/src/features/conversations/workspace',
        '<rootDir>/src/features/conversations/shared',
        ...contractChecksOf('conversations'),
      ],
      exclude: ['**/*.test.*'],
    },
    // The keyboard shortcuts' dialog, loaded when first opened, brings its own.
    {
      path: '<rootDir>/src/app/shortcuts/locales/{locale}',
      include: ['<rootDir>/src/app/shortcuts'],
      exclude: ['**/*.test.*'],
    },
    {
      path: '<rootDir>/src/i18n/locales/{locale}',
      include: ['<rootDir>/src/app', '<rootDir>/src/components', '<rootDir>/src/api', '<rootDir>/src/queries', '<rootDir>/src/contract'],
      exclude: ['**/*.test.*', '<rootDir>/src/app/shortcuts/**', ...SHOWN_BY_FEATURES],
    },
    {
      // The server's own words (its refusals, the contract's checks), loaded once when it starts;
      // not the agent server's (which speaks to the agent) nor its test helpers'.
      path: '<rootDir>/server/locales/{locale}',
      include: ['<rootDir>/server', '<rootDir>/src/contract'],
      exclude: ['**/*.test.*', '<rootDir>/server/agent-server', '<rootDir>/server/testing', '<rootDir>/server/reliability'],
    },
  ],
});
