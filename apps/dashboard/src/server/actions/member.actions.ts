'use server';

import { memberRemoval, memberView } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem } from '../api-problem';
import { idField, textField } from '../form-data';

function missingMember(): ActionState {
  return failure(invalidInputProblem([{ path: 'userId', message: 'No member was named.' }]));
}

export async function changeMemberRoleAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageMembers');
  if (refusal) return failure(refusal);
  const userId = idField(form, 'userId');
  if (userId === undefined) return missingMember();
  const result = await callApi({
    answer: memberView,
    method: 'PATCH',
    path: `/v1/members/${userId}`,
    body: { role: textField(form, 'role') },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(
    `${result.data.displayName} is now ${result.data.role === 'admin' ? 'an' : 'a'} ${result.data.role}.`,
  );
}

export async function removeMemberAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageMembers');
  if (refusal) return failure(refusal);
  const userId = idField(form, 'userId');
  if (userId === undefined) return missingMember();
  const result = await callApi({ answer: memberRemoval, method: 'DELETE', path: `/v1/members/${userId}` });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success('Member removed; their sessions and tokens in this tenant are revoked.');
}
