// The file-role convention (CODE_STYLE.md) as a pure function: which names it takes and which it refuses. The
// ESLint rule that applies it to every file is fed a refused name in lint-rules.spec.ts.
import { fileNameParts, fileRoleProblem, ROLES } from './file-roles.mjs';

describe('file roles', () => {
  it('keeps the set small', () => {
    expect(Object.keys(ROLES).length).toBeLessThanOrEqual(20);
  });

  it('reads the stem, the role and the test marker of a name', () => {
    expect(fileNameParts('approve-request.use-case.ts')).toEqual({
      stem: 'approve-request',
      role: 'use-case',
      marker: null,
    });
    expect(fileNameParts('tool-name.guard.spec.ts')).toEqual({
      stem: 'tool-name',
      role: 'guard',
      marker: '.spec',
    });
    expect(fileNameParts('resolve-path-linearity.timing.spec.ts')).toEqual({
      stem: 'resolve-path-linearity',
      role: null,
      marker: '.timing.spec',
    });
    expect(fileNameParts('page.tsx')).toEqual({ stem: 'page', role: null, marker: null });
  });

  it.each([
    'libs/catalog/src/tool-name.guard.ts',
    'libs/catalog/src/tool-name.guard.spec.ts',
    'libs/db/src/leases/lease-revocation.repository.ts',
    'apps/api/src/leases/issue-lease.use-case.ts',
    'apps/api/src/leases/leases.int-spec.ts',
    'apps/dashboard/src/server/actions/token.actions.ts',
    'apps/dashboard/src/app/(console)/tokens/page.tsx',
    'libs/definitions/src/definition-decoder.ts',
    'libs/definitions/src/resolve-path-linearity.timing.spec.ts',
    'libs/contracts/src/index.ts',
    'apps/dashboard/next-env.d.ts',
    'scripts/start/redis-server.starter.ts',
  ])('takes %s', (path) => {
    expect(fileRoleProblem(path)).toBeNull();
  });

  it.each([
    ['libs/catalog/src/tool-axes.fold.ts', "'.fold' is not a file role"],
    ['libs/catalog/src/tool-axes.fold.spec.ts', "'.fold' is not a file role"],
    ['apps/api/src/leases/lease.retry.int-spec.ts', "'.retry' is not a file role"],
    ['apps/api/src/approvals/approval.problems.ts', "'.problems' is not a file role"],
    ['libs/egress/src/fetch/pinned-fetch.hostile-input.int-spec.ts', "'.hostile-input' is not a file role"],
    ['apps/dashboard/src/ui/DataTable.tsx', 'not kebab-case'],
    ['libs/db/src/reads/workspace_reads.ts', 'not kebab-case'],
  ])('refuses %s', (path, why) => {
    expect(fileRoleProblem(path)).toContain(why);
  });

  it('names the plain name to use instead of an unknown role', () => {
    expect(fileRoleProblem('libs/catalog/src/tool-axes.fold.ts')).toContain("'tool-axes-fold'");
  });
});
