import fs from 'node:fs';
import js from '@eslint/js';
import pluginQuery from '@tanstack/eslint-plugin-query';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import pluginLingui from 'eslint-plugin-lingui';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const features = fs.existsSync('src/features')
  ? fs
      .readdirSync('src/features', { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name)
  : [];

/** Folders whose every user-visible string is in a catalog (see lingui.config.ts). */
const TRANSLATED = ['src/app', 'src/components', 'src/api', 'src/queries', 'src/features'];

export default tseslint.config(
  { ignores: ['dist', 'build', 'node_modules', 'test-results', 'playwright-report', 'data'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    files: ['src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, 'import-x': importX },
    settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.tsx', '.js'] })] },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      // Layers (bulletproof-react): contract ← api ← queries ← features ← app, components
      // beside the queries, and a feature never reaches into another feature.
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: [
            ...features.map((feature) => ({
              target: `./src/features/${feature}`,
              from: './src/features',
              except: [`./${feature}`],
              message: 'A feature must not import another feature; move the shared piece to src/components, src/api or src/contract.',
            })),
            {
              target: ['./src/api', './src/contract', './src/components', './src/queries'],
              from: ['./src/features', './src/app'],
              message: 'Shared layers must not depend on features or the app.',
            },
            {
              target: ['./src/api', './src/contract', './src/components'],
              from: './src/queries',
              message: 'The query layer sits above the fetch layer and beside the components: only features and the app use it.',
            },
            { target: './src/queries', from: './src/components', message: 'The query layer has no UI.' },
            { target: './src/contract', from: ['./src/api', './src/components'], message: 'The contract is pure schemas: no I/O, no UI.' },
            {
              target: './src',
              from: ['./server', './scripts'],
              message: 'The console shares src/contract with the server; it imports nothing of it.',
            },
            { target: './src/api', from: './src/components', message: 'The fetch layer has no UI.' },
            { target: './src/features', from: './src/app', message: 'Features do not depend on the app shell.' },
          ],
        },
      ],
    },
  },
  ...pluginQuery.configs['flat/recommended'],
  {
    // What a person reads goes through Lingui (`t`, `<Trans>`, `msg`), so every language has it.
    files: TRANSLATED.map((folder) => `${folder}/**/*.{ts,tsx}`),
    // pages.ts is the build scripts' English list (the console shows page-labels.ts); fixtures are tests' data.
    ignores: ['**/*.test.{ts,tsx}', '**/fixtures.ts', 'src/app/pages.ts'],
    plugins: { lingui: pluginLingui },
    rules: {
      ...pluginLingui.configs['flat/recommended'].rules,
      'lingui/no-unlocalized-strings': [
        'error',
        {
          ignore: [
            // One word without a capital (a key, a CSS value, a field name), UPPERCASE, or no letters at all.
            '^(?![A-Z])\\S+$',
            '^[A-Z0-9_-]+$',
            '^[^A-Za-z]*$',
            // Names: the product's, the servers'.
            '^(Agent Console|OpenHands)$',
          ],
          ignoreNames: [
            {
              regex: {
                pattern:
                  '^(className|key|href|to|id|name|type|variant|color|size|c|fw|ff|fontFamily|flex|gap|p|px|py|m|mt|mb|radius|justify|align|wrap|component|role|autoComplete|inputMode|mode|method|path|placeholder|position|data-.*|aria-(controls|describedby|labelledby|hidden|live|current))$',
              },
            },
          ],
          ignoreFunctions: [
            'Error',
            'console.*',
            '*.startsWith',
            '*.endsWith',
            '*.includes',
            'URL',
            'URLSearchParams',
            '*.getElementById',
            '*.querySelector',
            '*.closest',
            'useMediaQuery',
            'parseDiff',
            'createTwoFilesPatch',
          ],
        },
      ],
    },
  },
  {
    files: ['src/contract/**', 'src/api/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react-*', '@mantine/*', '@tanstack/react-query'], message: 'src/contract and src/api hold no React.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/queries/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(react|react-dom|react-router)(/|$)|^@mantine/|^@tabler/',
              message: 'src/queries holds query and mutation options, no components.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+src/(?!contract/|i18n/locales$)',
              message: 'The server shares only src/contract (and the list of languages, src/i18n/locales) with the console.',
            },
          ],
        },
      ],
    },
  },
  {
    // A server's 422 reaches a form through useServerSubmit/applyServerErrors: at the input its `loc`
    // names, in the console's words, with the rest in one alert. A feature does not pick at it.
    files: ['src/features/**/*.{ts,tsx}'],
    ignores: ['**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "MemberExpression[property.name='validation']",
          message: "Put a server's validation entries on the form with useServerSubmit or applyServerErrors (src/components/form).",
        },
      ],
    },
  },
  {
    files: ['server/routes/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['kysely', 'better-sqlite3', 'pg', '../store/**', '../processes/**', '../sandboxes/**', 'node:child_process'],
              message: 'Routes validate and call a service: no SQL or process calls here.',
            },
            {
              regex: '^(\\.\\./)+src/(?!contract/|i18n/locales$)',
              message: 'The server shares only src/contract (and the list of languages, src/i18n/locales) with the console.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['server/{services,store,sandboxes,processes,mcp,git-providers}/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              // Pydantic's 422 wording, pure zod, also words the problems of a config file (sandbox specs).
              group: ['fastify', '@fastify/*', '**/http/**', '!**/http/validation-detail', '**/routes/**'],
              message: 'Below the routes there is no HTTP: throw a domain error (server/domain-errors.ts).',
            },
            {
              regex: '^(\\.\\./)+src/(?!contract/|i18n/locales$)',
              message: 'The server shares only src/contract (and the list of languages, src/i18n/locales) with the console.',
            },
          ],
        },
      ],
    },
  },
  {
    // Users' data is reached only through the data-access layer, bound to whoever a call is for.
    files: ['server/**/*.ts'],
    ignores: ['server/authz/**', 'server/store/**', 'server/services/create-services.ts', '**/*.test.ts', 'server/testing/**'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['conversations', 'sandboxes', 'start-tasks', 'events', 'settings', 'secrets', 'users', 'api-keys']
                .map((store) => `**/store/${store}-store`)
                .concat('**/store/user-scope'),
              allowTypeImports: true,
              message:
                "Reach users' data through the data-access layer: data.as(caller), or data.as(asSystem('…')) for the server's own work (server/authz).",
            },
          ],
        },
      ],
    },
  },
  {
    files: [
      'server/main.ts',
      'server/start.ts',
      'server/demo/main.ts',
      'server/migrate-to-postgres.ts',
      'server/audit-verify.ts',
      'server/agent-server/**',
      'scripts/**',
      'test-support/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
