// @ts-check
// ESLint for Baton: eslint's and typescript-eslint's recommended rules (without type
// information, so a run over the whole tree stays fast), a few rules the code already
// follows, and eslint-config-prettier last so that layout is Prettier's alone.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import { defineConfig, globalIgnores } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

// Underscore names are unused on purpose: a parameter an override must accept, or a
// property taken out of an object so that the rest can be passed on.
const UNUSED = { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true };

export default defineConfig(
  globalIgnores(['dist/', 'apps/*/dist/', 'apps/dashboard/src/api/openapi-types.gen.ts', 'coverage/', 'data/', '.ci/node24/']),
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },

  js.configs.recommended,
  {
    rules: {
      // Baton's input validators match U+0000–U+001F and U+007F on purpose, to refuse
      // control characters in user text; every such pattern is written with \u escapes.
      // That is the only thing this rule ever found here, so it is off rather than
      // silenced at each validator.
      'no-control-regex': 'off',
      'no-unused-vars': ['error', UNUSED],
      // A variable read by a callback before the one assignment that follows it
      // (let server = ...; let receiver!: T; ...) cannot be a const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],

      // Followed throughout the code already.
      eqeqeq: 'error',
      'no-var': 'error',
      'object-shorthand': 'error',
      'no-param-reassign': 'error',
      'no-throw-literal': 'error',
      'no-self-compare': 'error',
      'array-callback-return': 'error',
      'no-duplicate-imports': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },

  {
    files: ['**/*.ts', '**/*.tsx'],
    extends: [tseslint.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', UNUSED],
      // The service logs through its JSON logger (and the CLIs write to stdout/stderr);
      // a console call in TypeScript is a leftover.
      'no-console': 'error',
      // No `public` keyword (members are public by default) and `as` casts only.
      '@typescript-eslint/explicit-member-accessibility': ['error', { accessibility: 'no-public' }],
      '@typescript-eslint/consistent-type-assertions': 'error',
    },
  },
  {
    // Production code stays in pieces a reader can hold: a file past 400 lines is usually two
    // things, a function past 80 lines several steps without names. Specs, suites and
    // migrations (long tables of cases and statements) are not held to it.
    files: ['src/**/*.ts', 'libs/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: {
      'max-lines': ['error', { max: 400 }],
      'max-lines-per-function': ['error', { max: 80 }],
    },
  },
  {
    files: ['**/*.spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts'],
    languageOptions: { globals: { ...globals.jest } },
  },
  {
    files: ['test/**/*.ts'],
    rules: {
      // The e2e suites read the service's JSON answers through Http, whose results are
      // `any` by default so a test can assert on a field without a cast at every read;
      // the assertions are what check the shape. src/, libs/ and migrations/ keep the rule.
      '@typescript-eslint/no-explicit-any': 'off',
    },
  },

  {
    // The browser dashboard: DOM globals, and the server's code only as types (apps/dashboard/src/api/types.ts
    // re-exports its view types; a value import would pull server code into the bundle).
    files: ['apps/dashboard/**/*.ts', 'apps/dashboard/**/*.tsx'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': 'off',
      '@typescript-eslint/no-restricted-imports': [
        'error',
        { patterns: [{ group: ['**/src/**', '**/libs/**'], allowTypeImports: true, message: 'import the server only as types, through src/api/types.ts' }] },
      ],
    },
  },

  // The JavaScript files are CommonJS Node scripts: CI helpers, the build check, the benchmarks
  // and the jest configuration. The benchmarks report on the console.
  {
    files: ['**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
  },

  prettier,
);
