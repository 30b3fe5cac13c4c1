// How a protected store uses a fencing token (Kleppmann's fencing): the store keeps the highest token it has
// accepted for the resource and refuses any write carrying a lower one. A holder whose lock expired while it
// was paused (GC, network) then cannot overwrite the work of the holder that came after it, even though it
// still believes it holds the lock. An equal token is the same holder writing again and is accepted.
//
// In SQL the check and the write are one statement, e.g.
//   UPDATE t SET ..., fencing_token = $token WHERE id = $id AND fencing_token <= $token
// and zero updated rows means "stale holder: stop". This function is the same rule for stores kept in memory.

export type FencingCheck =
  { readonly ok: true } | { readonly ok: false; readonly reason: 'stale_fencing_token' };

export function checkFencingToken(highestAccepted: bigint | null, presented: bigint): FencingCheck {
  if (highestAccepted !== null && presented < highestAccepted)
    return { ok: false, reason: 'stale_fencing_token' };
  return { ok: true };
}
