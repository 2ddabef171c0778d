// ESLint 9 flat config: the recommended JavaScript and typescript-eslint rules plus a few house rules. Typed rules
// (a promise neither awaited nor handed on) only where the code is asynchronous: the service, the stores and the
// hooks; elsewhere untyped linting, and `tsc --noEmit` type-checks.
import js from '@eslint/js';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Built-in modules must be imported with the `node:` prefix (house style). */
const BARE_BUILTINS = [
  'assert',
  'buffer',
  'child_process',
  'crypto',
  'events',
  'fs',
  'fs/promises',
  'os',
  'path',
  'process',
  'readline',
  'stream',
  'url',
  'util',
  'v8',
  'zlib',
];

export default tseslint.config(
  {
    ignores: [
      'dist/',
      'plugin/dist/',
      'plugin/types/',
      'src/generated/',
      'node_modules/',
      'coverage/',
      'bench-results/',
      '.claude/',
    ],
  },
  { linterOptions: { reportUnusedDisableDirectives: 'error' } },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      eqeqeq: ['error', 'always'],
      'prefer-const': 'error',
      // An empty catch swallows every error; ENOENT is "absent", the rest is rethrown (house style).
      'no-empty': ['error', { allowEmptyCatch: false }],
      'no-restricted-imports': [
        'error',
        { paths: BARE_BUILTINS.map((name) => ({ name, message: `Import \`node:${name}\` (house style).` })) },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        {
          argsIgnorePattern: '^_',
          varsIgnorePattern: '^_',
          destructuredArrayIgnorePattern: '^_',
          caughtErrors: 'none',
        },
      ],
      // `typeof import('…')` stays allowed: tests type what they require() from dist/ with it.
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
    },
  },
  {
    // The pure core: time, randomness and the process are passed in (README "Design", ARCHITECTURE.md).
    files: ['src/core/**/*.ts'],
    rules: {
      'no-restricted-globals': [
        'error',
        ...['process', 'crypto', 'Buffer', 'setTimeout', 'setInterval', 'fetch', 'require'].map((name) => ({
          name,
          message: 'src/core is pure: take it as an argument.',
        })),
      ],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'src/core is pure: take random digits as an argument.' },
        { object: 'Date', property: 'now', message: 'src/core is pure: take the time as an argument.' },
        { object: 'globalThis', property: 'crypto', message: 'src/core is pure: take random digits as an argument.' },
        { object: 'globalThis', property: 'process', message: 'src/core is pure: take it as an argument.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'src/core is pure: take the time as an argument.',
        },
      ],
    },
  },
  {
    // Tests load the built bundles with require() on purpose (the user's way in); CommonJS scripts are CommonJS.
    files: ['tests/**/*.ts', '**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // Every store call is a Promise: one left floating would let a hook answer before its write, or lose its error.
    files: [
      'src/app/**/*.ts',
      'src/service/**/*.ts',
      'src/store/**/*.ts',
      'src/hooks/**/*.ts',
      'hooks/*.ts',
      'src/index.ts',
    ],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
);
