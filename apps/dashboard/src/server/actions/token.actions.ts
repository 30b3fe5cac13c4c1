'use server';

import { createdToken, tokenView } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import type { TokenView } from '@/views/api-views';
import { isTenantTokenKind } from '@/views/token-kinds';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem } from '../api-problem';
import { idField, listField, textField } from '../form-data';

/**
 * The one place a secret reaches the browser: the new token's secret, returned once to the form that created
 * it (a server action's answer is never cached) and shown with a copy button. It is not stored anywhere here.
 */
export type CreateTokenState =
  | ActionState
  | { readonly status: 'created'; readonly token: TokenView; readonly secret: string; readonly at: number };

export async function createTokenAction(
  _previous: CreateTokenState,
  form: FormData,
): Promise<CreateTokenState> {
  const refusal = await refuseUnless('createTokens');
  if (refusal) return failure(refusal);
  const kind = textField(form, 'kind');
  if (!isTenantTokenKind(kind)) {
    return failure(invalidInputProblem([{ path: 'kind', message: 'Choose user, agent or worker.' }]));
  }
  if (kind !== 'user') {
    const serviceRefusal = await refuseUnless('createServiceTokens');
    if (serviceRefusal) return failure(serviceRefusal);
  }
  const expires = textField(form, 'expiresInDays');
  const workspaceIds = listField(form, 'workspaceIds');
  const pool = textField(form, 'pool');
  const name = textField(form, 'name');
  const scopes = listField(form, 'scopes');
  const result = await callApi({
    answer: createdToken,
    method: 'POST',
    path: '/v1/tokens',
    body: {
      name,
      kind,
      scopes,
      ...(kind !== 'user' && workspaceIds.length > 0 ? { workspaceIds } : {}),
      ...(kind === 'worker' && pool !== '' ? { pool } : {}),
      ...(expires !== '' ? { expiresInDays: Number(expires) } : {}),
    },
  });
  if (!result.ok) {
    return failure(result.problem, { name, kind, scopes, workspaceIds, pool, expiresInDays: expires });
  }
  return { status: 'created', token: result.data.token, secret: result.data.secret, at: Date.now() };
}

export async function revokeTokenAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('createTokens');
  if (refusal) return failure(refusal);
  const tokenId = idField(form, 'tokenId');
  if (tokenId === undefined) {
    return failure(invalidInputProblem([{ path: 'tokenId', message: 'No token was named.' }]));
  }
  const result = await callApi({ answer: tokenView, method: 'DELETE', path: `/v1/tokens/${tokenId}` });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`Token ${result.data.prefix}… revoked.`);
}
