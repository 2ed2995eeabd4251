import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    ignores: [
      'build',
      'build-*',
      '.react-router',
      'node_modules',
      '.data',
      'test-results',
      'playwright-report',
      'migrations',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': ['error', { allow: ['error'] }],
    },
  },
  {
    files: ['**/*.mjs', 'db/seed.ts', 'db/migrate.ts', 'e2e/**', 'tests/**'],
    // Test helpers named useX register Vitest hooks, not React hooks.
    rules: { 'no-console': 'off', 'react-hooks/rules-of-hooks': 'off' },
  },
  {
    files: ['e2e/**/*.spec.ts'],
    // The suite's own `test` also checks every visited page at 360 px (e2e/support/fixtures.ts).
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@playwright/test',
              importNames: ['test', 'expect'],
              message: "Import test and expect from './support/fixtures': its test checks every page at 360 px.",
            },
          ],
        },
      ],
    },
  },
)
