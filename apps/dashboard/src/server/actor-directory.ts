import type { ActorDirectory } from '../ui/audit/audit-labels';
import type { MemberView } from '../views/api-views';
import { listMembers } from './api-queries';
import type { Capabilities } from './capabilities';

export function directoryFromMembers(members: readonly MemberView[]): ActorDirectory {
  return Object.fromEntries(members.map((member) => [member.userId, member.displayName]));
}

/**
 * Names for the user ids in audit events, from the member list when the reader may see it (audit readers
 * can). A failure here only costs names: the events still show, with short ids.
 */
export async function actorDirectory(can: Capabilities): Promise<ActorDirectory> {
  if (!can.readMembers) return {};
  const members = await listMembers({ limit: 200 });
  return members.ok ? directoryFromMembers(members.data.items) : {};
}
