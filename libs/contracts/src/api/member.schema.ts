import { z } from 'zod';
import { membershipRole } from './access.schema';
import { isoDateTime, pageInput, page, uuid } from './common.schema';

export const memberView = z
  .object({
    userId: uuid,
    email: z.string(),
    displayName: z.string(),
    role: membershipRole,
    joinedAt: isoDateTime,
  })
  .meta({ title: 'Member' });
export const memberPage = page(memberView).meta({ title: 'MemberPage' });
export const memberRemoval = z.object({ removed: z.boolean() }).meta({ title: 'MemberRemoval' });

export const listMembersInput = z.strictObject({ ...pageInput });
export const changeMemberRoleInput = z.strictObject({ userId: uuid, role: membershipRole });
export const removeMemberInput = z.strictObject({ userId: uuid });
