import type { ESLint, Rule } from 'eslint';

/** The top-level folders, bottom first. */
export declare const TOP_LAYERS: readonly string[];
/** The concept folders of lambdas/, bottom first, one row per layer. */
export declare const LAMBDAS_LAYERS: readonly (readonly string[])[];
/** The folders of cli/, bottom first, one row per layer. */
export declare const CLI_LAYERS: readonly (readonly string[])[];
/** Why `from` may not import `to` (both repository-relative), or undefined when it may. */
export declare function zoneProblem(from: string, to: string): string | undefined;
/** The ESLint rule `house/import-zones`. */
export declare const importZonesRule: Rule.RuleModule;
/** The plugin eslint.config.mjs registers as `house`. */
export declare const housePlugin: ESLint.Plugin;
