// Types for file-roles.legacy.mjs.
export declare const LEGACY_FILE_ROLES: ReadonlySet<string>;
