import type { CatalogToolAxes, CatalogToolAxesFrom, CatalogToolServerHints } from '@gatehouse/contracts';
import type { ToolAxis } from './tool-axes-reader';

export interface FoldedToolAxes {
  readonly axes: CatalogToolAxes;
  readonly from: CatalogToolAxesFrom;
  /** The caller lowered `effect` but kept `egress`: the axes fell back to the fail-closed default. */
  readonly contradiction: boolean;
}

const FAIL_CLOSED: FoldedToolAxes = Object.freeze({
  axes: Object.freeze({ effect: 'write', egress: true }),
  from: Object.freeze({ effect: 'default', egress: 'default', irreversibility: 'absent' }),
  contradiction: false,
});

/**
 * The effective safety axes of one MCP tool: the caller's `toolAxes` (read by readToolAxes, approved with the
 * definition) is the only trusted word, and it is authoritative both ways; where it says nothing, the tool is
 * `effect: write` and `egress: true` (fail closed). The server's own annotations are claims by the party being
 * judged, so they may only tighten: `destructiveHint: true` marks the tool irreversible; `readOnlyHint`,
 * `idempotentHint`, `openWorldHint: false` and `destructiveHint: false` lower nothing.
 *
 * A caller effect below `write` with `egress: true` (said or defaulted) is a contradiction (a call that leaves
 * the boundary is not repeat-safe): the tool keeps the fail-closed axes and the caller is told. Decision 0048.
 */
export function foldToolAxes(
  caller: ToolAxis | undefined,
  hints: CatalogToolServerHints | undefined,
): FoldedToolAxes {
  const effect = caller?.effect ?? 'write';
  const egress = caller?.egress ?? true;
  const irreversibility =
    caller?.irreversibility ?? (hints?.destructiveHint === true ? ('always' as const) : undefined);
  const irreversibilityFrom =
    caller?.irreversibility !== undefined
      ? 'caller'
      : irreversibility !== undefined
        ? 'server_hint'
        : 'absent';
  if (effect !== 'write' && egress) {
    const axes: CatalogToolAxes =
      irreversibility === undefined ? FAIL_CLOSED.axes : { effect: 'write', egress: true, irreversibility };
    return {
      axes,
      from: { effect: 'default', egress: 'default', irreversibility: irreversibilityFrom },
      contradiction: true,
    };
  }
  const axes: CatalogToolAxes =
    irreversibility === undefined ? { effect, egress } : { effect, egress, irreversibility };
  return {
    axes,
    from: {
      effect: caller?.effect !== undefined ? 'caller' : 'default',
      egress: caller?.egress !== undefined ? 'caller' : 'default',
      irreversibility: irreversibilityFrom,
    },
    contradiction: false,
  };
}
