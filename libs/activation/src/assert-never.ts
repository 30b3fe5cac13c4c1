/** Exhaustiveness guard for switches over string unions: adding a member without handling it fails to compile. */
export function assertNever(value: never): never {
  throw new Error(`unhandled case: ${String(value)}`);
}
