import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

// Context boundaries: a file in src/<context>/ may import another context only through that context's
// index.ts, its public entry. The shared kernels (common, config, database) are open to everyone. The
// contexts are the folders of src/, so a new one is covered without editing this list.
const KERNELS = ['common', 'config', 'database'];
const CONTEXTS = readdirSync(new URL('./src', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && !KERNELS.includes(entry.name))
  .map((entry) => entry.name);
// Import paths are relative, so what `../ui/` names depends on how deep the importing file sits (the
// self-service context has a `ui` folder of its own): one block per context and depth below src/.
const BOUNDARY_DEPTHS = [1, 2, 3, 4, 5, 6];
const contextBoundaries = CONTEXTS.flatMap((context) =>
  BOUNDARY_DEPTHS.map((depth) => ({
    files: [`src/${context}/${'*/'.repeat(depth - 1)}*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: `^(?:\\.\\./){${depth}}(?:${CONTEXTS.filter((other) => other !== context).join('|')})/(?!index\\.js$)`,
              message: `Another context's internals: import it from its index.js (src/<context>/index.ts), which says what it offers.`,
            },
          ],
        },
      ],
    },
  })),
);

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.data/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Correctness rules that need type information (STYLE.md habit 11).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      eqeqeq: ['error', 'always'],
      // @fastify/cookie parses no header by itself (hook: false, src/bootstrap.ts): read cookies through
      // requestCookies (src/common/http/cookies.ts), which parses on first use.
      'no-restricted-syntax': [
        'error',
        {
          selector:
            "MemberExpression[property.name='cookies'][object.name=/^req(uest)?$/], MemberExpression[property.name='cookies'][object.property.name=/^req(uest)?$/]",
          message: 'Use requestCookies(request): request.cookies is null until parsed.',
        },
      ],
      'no-console': 'error',
    },
  },
  ...contextBoundaries,
  {
    files: ['**/*.mjs', '**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly', URL: 'readonly', setTimeout: 'readonly' } },
  },
  {
    files: ['test/**', 'bench/**', 'scripts/**'],
    rules: { 'no-console': 'off' },
  },
);
