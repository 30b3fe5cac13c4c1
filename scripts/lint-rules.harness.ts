// Lints a snippet as if it lived at a given path, against the real eslint.config.mjs (loaded as a module: the
// ESLint Node API cannot import a config file inside jest's CommonJS sandbox).
import { ESLint, type Linter } from 'eslint';
import { resolve } from 'node:path';
import config from '../eslint.config.mjs';

export const WORKSPACE_ROOT = resolve(__dirname, '..');

const eslint = new ESLint({ cwd: WORKSPACE_ROOT, overrideConfigFile: true, overrideConfig: config });

export interface LintFinding {
  readonly ruleId: string | null;
  readonly message: string;
}

export async function lintAt(filePath: string, code: string): Promise<LintFinding[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(WORKSPACE_ROOT, filePath) });
  if (result === undefined) throw new Error(`eslint returned no result for ${filePath}`);
  return result.messages
    .filter((message: Linter.LintMessage) => message.severity === 2)
    .map((message: Linter.LintMessage) => ({ ruleId: message.ruleId, message: message.message }));
}

export async function findingsOf(ruleId: string, filePath: string, code: string): Promise<string[]> {
  const findings = await lintAt(filePath, code);
  return findings.filter((finding) => finding.ruleId === ruleId).map((finding) => finding.message);
}
