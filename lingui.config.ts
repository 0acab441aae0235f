import { defineConfig } from '@lingui/conf';
import { formatter } from '@lingui/format-po';
import { CONSOLE_LOCALES, SOURCE_LOCALE } from './src/i18n/locales';

/** Features with a catalog of their own, loaded with their pages. */
const FEATURES = [
  'api-keys',
  'auth',
  'conversations',
  'git-secrets',
  'mcp-servers',
  'sandboxes',
  'settings',
  'team-defaults',
  'usage',
  'users',
];

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
    {
      path: '<rootDir>/src/i18n/locales/{locale}',
      include: ['<rootDir>/src/app', '<rootDir>/src/components', '<rootDir>/src/api', '<rootDir>/src/queries'],
      exclude: ['**/*.test.*'],
    },
  ],
});
