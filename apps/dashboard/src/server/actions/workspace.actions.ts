'use server';

import { maintainerRemoval, maintainerView, workspaceView } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { redirect } from 'next/navigation';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem, type ApiProblem } from '../api-problem';
import { idField, textField } from '../form-data';

function missingWorkspace(): ActionState {
  return failure(invalidInputProblem([{ path: 'workspaceId', message: 'No workspace was named.' }]));
}

function refused(problem: ApiProblem): ActionState {
  return failure(problem);
}

export async function createWorkspaceAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return refused(refusal);
  const name = textField(form, 'name');
  const repositoryIdentity = textField(form, 'repositoryIdentity');
  const result = await callApi({
    answer: workspaceView,
    method: 'POST',
    path: '/v1/workspaces',
    body: { name, ...(repositoryIdentity !== '' ? { repositoryIdentity } : {}) },
  });
  if (!result.ok) return failure(result.problem, { name, repositoryIdentity });
  redirect(`/workspaces/${result.data.id}?created=1`);
}

export async function renameWorkspaceAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return refused(refusal);
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return missingWorkspace();
  const name = textField(form, 'name');
  const result = await callApi({
    answer: workspaceView,
    method: 'PATCH',
    path: `/v1/workspaces/${workspaceId}`,
    body: { name },
  });
  if (!result.ok) return failure(result.problem, { name });
  refresh();
  return success(`Renamed to ${result.data.name}.`);
}

export async function setWorkspaceTrustAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return refused(refusal);
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return missingWorkspace();
  const trusted = textField(form, 'trusted') === 'true';
  const result = await callApi({
    answer: workspaceView,
    method: 'PUT',
    path: `/v1/workspaces/${workspaceId}/trust`,
    body: { trusted },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(result.data.trusted ? 'The workspace is now trusted.' : 'The workspace is now untrusted.');
}

export async function bumpWorkspaceGenerationAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return refused(refusal);
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return missingWorkspace();
  const expected = Number(textField(form, 'expectedGeneration'));
  const result = await callApi({
    answer: workspaceView,
    method: 'POST',
    path: `/v1/workspaces/${workspaceId}/generation`,
    // The generation the person saw: if someone bumped it meanwhile, the API answers `conflict`.
    body: Number.isInteger(expected) && expected >= 1 ? { expectedGeneration: expected } : {},
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`Generation ${result.data.generation} started.`);
}

export async function addMaintainerAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return refused(refusal);
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return missingWorkspace();
  const userId = idField(form, 'userId');
  if (userId === undefined) {
    return failure(invalidInputProblem([{ path: 'userId', message: 'Choose a member.' }]));
  }
  const result = await callApi({
    answer: maintainerView,
    method: 'POST',
    path: `/v1/workspaces/${workspaceId}/maintainers`,
    body: { userId },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`${result.data.displayName} now maintains this workspace.`);
}

export async function removeMaintainerAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return refused(refusal);
  const workspaceId = idField(form, 'workspaceId');
  const userId = idField(form, 'userId');
  if (workspaceId === undefined || userId === undefined) return missingWorkspace();
  const result = await callApi({
    answer: maintainerRemoval,
    method: 'DELETE',
    path: `/v1/workspaces/${workspaceId}/maintainers/${userId}`,
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success('Maintainer removed.');
}
