/**
 * Disable overlays: a user (for themselves) or a workspace (for everyone in it) turns a server off without
 * touching its definition. A disabled entry stays listed with its reason, and the entry it wraps is exactly what
 * resolution gives without the overlay, so clearing the overlay gives back an identical entry.
 */
export type OverlayScope =
  { readonly kind: 'workspace' } | { readonly kind: 'user'; readonly userId: string };

export interface DisableOverlay {
  readonly serverName: string;
  readonly scope: OverlayScope;
}

export type DisableReason = 'disabled_by_workspace' | 'disabled_by_user';

export type OverlayCheck = { readonly ok: true } | { readonly ok: false; readonly reason: 'unknown_server' };

export interface OverlayProblem {
  readonly reason: 'unknown_server';
  readonly serverName: string;
  readonly scope: OverlayScope;
}

/** The view an overlay applies in: the workspace view reads workspace overlays only; a principal's adds their own. */
export type OverlayView =
  { readonly kind: 'workspace' } | { readonly kind: 'principal'; readonly userId: string };

/** Whether an overlay takes part in a view (another user's overlay never does). */
export function overlayApplies(overlay: DisableOverlay, view: OverlayView): boolean {
  switch (overlay.scope.kind) {
    case 'workspace':
      return true;
    case 'user':
      return view.kind === 'principal' && overlay.scope.userId === view.userId;
    default: {
      const unreachable: never = overlay.scope;
      throw new Error(`unknown overlay scope ${String(unreachable)}`);
    }
  }
}

/** Refuses an overlay that names a server the effective view does not list (checked when an overlay is written). */
export function checkDisableOverlay(
  overlay: DisableOverlay,
  knownServerNames: ReadonlySet<string>,
): OverlayCheck {
  return knownServerNames.has(overlay.serverName) ? { ok: true } : { ok: false, reason: 'unknown_server' };
}

/** Why each name is disabled in a view. A workspace overlay outranks the user's own (it binds everyone). */
export function disableReasons(applicable: readonly DisableOverlay[]): Map<string, DisableReason> {
  const reasons = new Map<string, DisableReason>();
  for (const overlay of applicable) {
    if (overlay.scope.kind === 'workspace') reasons.set(overlay.serverName, 'disabled_by_workspace');
    else if (!reasons.has(overlay.serverName)) reasons.set(overlay.serverName, 'disabled_by_user');
  }
  return reasons;
}
