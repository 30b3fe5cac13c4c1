import type { TestDatabase } from '@gatehouse/testing';

/** What every bench gets from bench/run.ts: its own migrated database and the Redis URL. */
export interface BenchContext {
  readonly testDb: TestDatabase;
  readonly redisUrl: string;
  /** Seconds per measured load run (BENCH_DURATION_S). */
  readonly durationSeconds: number;
  readonly log: (line: string) => void;
}

/** One measured quantity, as printed and written to docs/benchmarks.md. */
export interface BenchRow {
  readonly label: string;
  readonly value: string;
}

export interface BenchSection {
  readonly title: string;
  /** How it was measured, one paragraph. */
  readonly method: string;
  readonly rows: readonly BenchRow[];
  /** The headline ratio against the baseline measured in the same run. */
  readonly ratio: { readonly label: string; readonly value: number };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const index = Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1);
  return sorted[Math.max(0, index)] as number;
}

export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : 'n/a';
}
