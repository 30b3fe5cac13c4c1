import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { AUDIT_ACTION_LABELS, AUDIT_TARGET_KINDS, isInAuditFamily } from '@gatehouse/contracts';

// Every action the API's audit writers can record has a readable label (decision 0092). The writers are found
// in the source, not listed by hand: every `action:` property or parameter of a non-test file (a literal, a
// conditional of literals, a union type of them) and every `…AuditAction` union type. A new writer with a new
// code fails here until the table names it; a label no writer records fails too.

const API_SRC = join(__dirname, '..');
const ACTION_CODE = /^[a-z][A-Za-z]*(?:\.[A-Za-z_]+)+$/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    const test = /\.(spec|int-spec|test-fixture|harness)\.ts$/.test(entry.name);
    return entry.name.endsWith('.ts') && !test ? [path] : [];
  });
}

function literalsIn(expression: string): string[] {
  return [...expression.matchAll(/'([^'\n]+)'/g)].map((m) => m[1] ?? '').filter((s) => ACTION_CODE.test(s));
}

function writtenActions(): Map<string, string> {
  const found = new Map<string, string>();
  for (const file of sourceFiles(API_SRC)) {
    const text = readFileSync(file, 'utf8');
    const expressions = [
      // `action: 'a'`, `action: x ? 'a' : 'b'`, `action: 'a' | 'b'` (up to the end of the property)
      ...[...text.matchAll(/\baction\??:\s*([^,;)]+)/g)].map((m) => m[1] ?? ''),
      ...[...text.matchAll(/\btype \w*AuditAction\s*=([^;]+);/g)].map((m) => m[1] ?? ''),
    ];
    for (const code of expressions.flatMap(literalsIn)) found.set(code, relative(API_SRC, file));
  }
  return found;
}

describe('audit action labels', () => {
  const written = writtenActions();

  it('finds the writers (the scan is not silently empty)', () => {
    for (const code of [
      'auth.login',
      'auth.login_failed',
      'leases.renewal_refused',
      'oauth.service_credential_chosen',
      'catalog.submit_refused',
      'definitions.sources.import',
    ])
      expect(written.has(code)).toBe(true);
    expect(written.size).toBeGreaterThanOrEqual(45);
  });

  it('labels every action a writer can record', () => {
    const unlabeled = [...written].filter(([code]) => !(code in AUDIT_ACTION_LABELS));
    expect(unlabeled).toEqual([]);
  });

  it('labels nothing no writer records', () => {
    expect(Object.keys(AUDIT_ACTION_LABELS).filter((code) => !written.has(code))).toEqual([]);
  });

  it('puts every action in at least one target kind', () => {
    const families = Object.values(AUDIT_TARGET_KINDS).flatMap((kind) => kind.actionPrefixes);
    const homeless = Object.keys(AUDIT_ACTION_LABELS).filter(
      (code) => !families.some((family) => isInAuditFamily(code, family)),
    );
    expect(homeless).toEqual([]);
  });
});
