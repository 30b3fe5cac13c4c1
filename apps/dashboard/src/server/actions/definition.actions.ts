'use server';

import { definitionVariableState, disableOverlayView } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem } from '../api-problem';
import { isVariableScope } from '../definition-permissions';
import { idField, textField } from '../form-data';
import { MAX_PATH_SEGMENT_CHARS } from '../problem-words';

// The writes of the Servers pages (the source editor's are in source-editor.actions.ts). Each asks again who
// is calling (a server action is reachable by a direct POST); the API then enforces the tier rules (who writes
// which tier, which workspace, whose variables). No action hands back a variable value: the state carries
// messages and problems only.

function invalid(path: string, message: string): ActionState {
  return failure(invalidInputProblem([{ path, message }]));
}

function variableTarget(form: FormData): { scope: string; workspaceId?: string; name: string } | ActionState {
  const scope = textField(form, 'scope');
  if (!isVariableScope(scope)) return invalid('scope', 'Choose whose variable this is.');
  const name = textField(form, 'name');
  if (name === '') return invalid('name', 'Enter the variable’s name, as ${NAME} references it.');
  if (name.length > MAX_PATH_SEGMENT_CHARS) {
    return invalid(
      'name',
      `Shorten the name to at most ${MAX_PATH_SEGMENT_CHARS} characters (it has ${name.length}).`,
    );
  }
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) {
    return invalid('name', 'Use only letters, digits and underscores, and do not start with a digit.');
  }
  if (scope !== 'workspace') return { scope, name };
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return invalid('workspaceId', 'No workspace was named.');
  return { scope, workspaceId, name };
}

export async function setDefinitionVariableAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const refusal = await refuseUnless('readWorkspaces');
  if (refusal) return failure(refusal);
  const target = variableTarget(form);
  if ('status' in target) return target;
  // Not trimmed: a value is exactly what was typed. It goes to the API and nowhere else.
  const raw = form.get('value');
  const value = typeof raw === 'string' ? raw : '';
  if (value === '') return invalid('value', 'Enter a value (to remove the variable, unset it).');
  const result = await callApi({
    answer: definitionVariableState,
    method: 'PUT',
    path: `/v1/definition-variables/${encodeURIComponent(target.name)}`,
    body: { scope: target.scope, ...(target.workspaceId ? { workspaceId: target.workspaceId } : {}), value },
  });
  if (!result.ok) return failure(result.problem, { name: target.name });
  refresh();
  return success(`${result.data.name} is set. Its value is stored encrypted and is never shown again.`);
}

export async function unsetDefinitionVariableAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const refusal = await refuseUnless('readWorkspaces');
  if (refusal) return failure(refusal);
  const target = variableTarget(form);
  if ('status' in target) return target;
  const result = await callApi({
    answer: definitionVariableState,
    method: 'DELETE',
    path: `/v1/definition-variables/${encodeURIComponent(target.name)}`,
    query: { scope: target.scope, workspaceId: target.workspaceId },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`${result.data.name} is unset.`);
}

function overlayTarget(
  form: FormData,
): { workspaceId: string; serverName: string; scope: string } | ActionState {
  const workspaceId = idField(form, 'workspaceId');
  if (workspaceId === undefined) return invalid('workspaceId', 'No workspace was named.');
  const serverName = textField(form, 'serverName');
  if (serverName === '')
    return invalid('serverName', 'No server was named: open the server from the list again.');
  // The name travels in the URL path, which the API's router caps (a longer one would be refused with 414).
  if (encodeURIComponent(serverName).length > MAX_PATH_SEGMENT_CHARS) {
    return invalid(
      'serverName',
      `This server’s name is too long to disable here (over ${MAX_PATH_SEGMENT_CHARS} characters in a URL): rename it in its source, or remove it there.`,
    );
  }
  const scope = textField(form, 'scope');
  if (scope !== 'workspace' && scope !== 'user') return invalid('scope', 'Choose who it is disabled for.');
  return { workspaceId, serverName, scope };
}

function overlayPath(target: { workspaceId: string; serverName: string }): string {
  return `/v1/workspaces/${target.workspaceId}/disabled-servers/${encodeURIComponent(target.serverName)}`;
}

export async function disableServerAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('readWorkspaces');
  if (refusal) return failure(refusal);
  const target = overlayTarget(form);
  if ('status' in target) return target;
  const reason = textField(form, 'reason');
  if (reason.length > 200) return invalid('reason', 'At most 200 characters.');
  const result = await callApi({
    answer: disableOverlayView,
    method: 'PUT',
    path: overlayPath(target),
    body: { scope: target.scope, ...(reason !== '' ? { reason } : {}) },
  });
  if (!result.ok) return failure(result.problem, { reason });
  refresh();
  const who = result.data.scope === 'workspace' ? 'for everyone in this workspace' : 'for you';
  return success(
    `${result.data.serverName} is disabled ${who}${result.data.reason ? `: ${result.data.reason}` : '.'}`,
  );
}

export async function enableServerAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('readWorkspaces');
  if (refusal) return failure(refusal);
  const target = overlayTarget(form);
  if ('status' in target) return target;
  const result = await callApi({
    answer: disableOverlayView,
    method: 'DELETE',
    path: overlayPath(target),
    query: { scope: target.scope },
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`${result.data.serverName} is enabled again.`);
}
