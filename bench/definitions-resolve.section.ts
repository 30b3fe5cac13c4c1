import { fixed, type BenchContext, type BenchSection } from './bench-context';
import { runDefinitionsBench } from './definitions-resolve.bench';

/** The pure-lib resolve bench as a docs/benchmarks.md section (it needs no database: the context is unused). */
export async function benchDefinitionsResolve(_ctx: BenchContext): Promise<BenchSection> {
  const result = await runDefinitionsBench();
  return {
    title: 'Resolving 10,000 servers across the five tiers (libs/definitions, in-process)',
    method: result.method,
    rows: [
      {
        label: 'baseline (JSON.parse + 2 × sha256 per entry)',
        value: `${fixed(result.baselineOpsPerSec, 0)} entries/s`,
      },
      { label: 'resolveDefinitions', value: `${fixed(result.opsPerSec, 0)} entries/s` },
      {
        label: 'long input: time per character at 4×10^5 / at 4×10^4 characters (target: within 3)',
        value: fixed(result.longInputRatio, 2),
      },
    ],
    ratio: { label: 'resolver time / baseline time (target: within 10)', value: result.ratio },
  };
}
