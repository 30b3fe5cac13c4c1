// Types for file-roles.mjs, so specs can import the convention they check.
import type { ESLint } from 'eslint';

export declare const ROLES: Readonly<Record<string, string>>;
export declare const TEST_MARKERS: readonly string[];
export declare function fileNameParts(fileName: string): {
  stem: string;
  role: string | null;
  marker: string | null;
};
export declare function fileRoleProblem(path: string): string | null;
export declare const fileRolesPlugin: ESLint.Plugin;
