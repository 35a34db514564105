// Type-aware checks on the functions' code (`npm run lint:types`): a separate config because typed linting builds the
// whole TypeScript program, seconds that the fast `eslint .` of every save should not pay.
// no-unnecessary-condition is how "resolved once" is checked: a `??` or `?.` on a field the resolved types declare
// always set is a condition that cannot be false, so it fails here (house style: no second defaults).
import tseslint from 'typescript-eslint';

export default tseslint.config({
  files: ['lambdas/**/*.ts'],
  languageOptions: {
    parser: tseslint.parser,
    parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
  },
  plugins: { '@typescript-eslint': tseslint.plugin },
  rules: { '@typescript-eslint/no-unnecessary-condition': 'error' },
});
