import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SERVICES = ['gateway', 'renderer'];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '.tools/**', '.data/**', 'bench-results/**', 'preview/**',
    // Type-checked by tests/process/clients/generated-clients.test.ts against the types it generates (not in the root project).
    'tests/support/clients/{openapi-fetch,hey-api,orval}/**',
    // Type-checked by tests/process/sdk/typescript-sdk.test.ts against the types it generates.
    'tests/support/sdk/types/**',
    // The README's and docs/' code blocks, written out and type-checked by tests/process/docs/readme-examples.test.ts.
    'tests/support/docs/generated/**',
    // The SDK's types, generated from the served document by scripts/sdk-types.ts.
    'packages/sdk/src/generated/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/require-await': 'off',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      'no-console': 'error',
    },
  },
  {
    // Packages are the shared floor: they may never reach up into a service.
    files: ['packages/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [{ group: ['**/services/**', '@utility-api/gateway', '@utility-api/renderer'], message: 'packages must not import services' }] }],
    },
  },
  // Services never import each other, by package name or by path: what two need lives in packages/.
  ...SERVICES.map((service) => ({
    files: [`services/${service}/**/*.ts`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: SERVICES.filter((other) => other !== service).map((other) => ({
            regex: `^@utility-api/${other}(/|$)|(^|/)${other}/src/`,
            message: `services/${service} must not import services/${other}: move what both need to a package`,
          })),
        },
      ],
    },
  })),
  {
    // Tests read JSON bodies as `any` on purpose; the assertions are the type check.
    files: ['tests/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-floating-promises': 'off',
    },
  },
  {
    // Examples are bots as a developer copies them: they report on the console.
    files: ['scripts/**/*.ts', 'scripts/**/*.js', 'bench/**/*.ts', 'examples/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
  {
    // The playground's and the account area's modules run in the browser: its globals, and no Node ones.
    files: ['services/gateway/web/playground/**/*.js', 'services/gateway/web/account-area/**/*.js'],
    languageOptions: {
      sourceType: 'module',
      globals: Object.fromEntries(
        ['window', 'document', 'navigator', 'sessionStorage', 'fetch', 'URL', 'URLSearchParams', 'AbortController', 'Blob', 'Response', 'performance', 'setTimeout', 'clearTimeout', 'DocumentFragment', 'Node', 'HTMLElement', 'HTMLInputElement', 'HTMLSelectElement', 'HTMLTextAreaElement', 'HTMLFormElement', 'HTMLFieldSetElement', 'HTMLImageElement', 'location', 'history', 'confirm', 'Intl'].map((name) => [name, 'readonly']),
      ),
    },
    rules: { 'no-undef': 'error' },
  },
);
