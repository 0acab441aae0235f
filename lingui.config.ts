import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, SOURCE_LOCALE } from './src/i18n/locales';

/** Features with a catalog of their own, loaded with their pages. */
const FEATURES = ['api-keys', 'auth', 'git-secrets', 'mcp-servers', 'sandboxes', 'team-defaults', 'users'];

/**
 * One catalog per feature, so a page downloads its own strings in the user's language and no
 * other page's (the sign-in screens' come with them); the shell's (layout, shared components)
 * comes with the entry.
 */
export default defineConfig({
  sourceLocale: SOURCE_LOCALE,
  locales: [...CONSOLE_LOCALES],
  fallbackLocales: { default: SOURCE_LOCALE },
  format: formatter({ lineNumbers: false }),
  catalogs: [
    ...FEATURES.map((feature) => ({
      path: `<rootDir>/src/features/${feature}/locales/{locale}`,
      include: [`<rootDir>/src/features/${feature}`],
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
      include: ['<rootDir>/src/features/conversations/list', '<rootDir>/src/features/conversations/shared'],
      exclude: ['**/*.test.*'],
    },
    {
      path: '<rootDir>/src/features/conversations/detail/locales/{locale}',
      include: [
        '<rootDir>/src/features/conversations/detail',
        '<rootDir>/src/features/conversations/workspace',
        '<rootDir>/src/features/conversations/shared',
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
      include: ['<rootDir>/src/app', '<rootDir>/src/components', '<rootDir>/src/api', '<rootDir>/src/queries'],
      exclude: ['**/*.test.*', '<rootDir>/src/app/shortcuts/**'],
    },
  ],
});
