// ESLint (flat config) with typescript-eslint's recommended rules, as the house style asks. Formatting is
// Prettier's job (.prettierrc.json), so no stylistic rules here.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { housePlugin } from './lint/import-zones.mjs';

export default tseslint.config(
  {
    ignores: [
      'node_modules/',
      'vendor/',
      'dist/',
      'cdk.out/',
      'coverage/',
      'bench/.data/',
      '.local/',
      's3-ddb-import-rejects/',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        performance: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextDecoder: 'readonly',
        TextEncoder: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
        setImmediate: 'readonly',
        fetch: 'readonly',
      },
    },
    plugins: { house: housePlugin },
    rules: {
      // The layers of the house style, checked (lint/import-zones.mjs).
      'house/import-zones': 'error',
      // `_`-prefixed names are deliberately unused (a parameter a signature requires).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
);
