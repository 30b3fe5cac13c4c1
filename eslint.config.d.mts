// Types for eslint.config.mjs, so the lint-rule specs can load the real config module (the ESLint Node API cannot
// import a config file inside jest's CommonJS sandbox).
import type { Linter } from 'eslint';

export declare const TEST_FILES: string[];
export declare const PURE_LIBS: string[];
export declare const API_LAYERS: { name: string; peers: boolean; members: string[] }[];
export declare const API_LAYER_KNOWN_VIOLATIONS: [from: string, to: string, why: string][];
declare const config: Linter.Config[];
export default config;
