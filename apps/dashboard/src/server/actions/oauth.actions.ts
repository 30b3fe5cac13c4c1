'use server';

import { oauthCredentialView, oauthSignedOut, oauthSignInStarted } from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { redirect } from 'next/navigation';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem } from '../api-problem';
import { idField, textField } from '../form-data';

// The Connections page's writes (oauth.signIn.start / .complete, oauth.signOut, the service credential's choice
// and sign-out; decisions 0062, 0066, 0082 and 0098). Only
// people sign in, for themselves; the API binds the sign-in to this session, so a redirect that comes back to
// another session is refused there. No action hands back a token: the answers are a state word and an issuer.

const MAX_REDIRECT_CHARS = 8_192;

function invalid(path: string, message: string): ActionState {
  return failure(invalidInputProblem([{ path, message }]));
}

/** Starts a sign-in and sends the browser to the authorization server the API checked. */
export async function startSignInAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('signInToServers');
  if (refusal) return failure(refusal);
  const workspaceId = idField(form, 'workspaceId');
  const serverName = textField(form, 'serverName');
  if (workspaceId === undefined || serverName === '') return invalid('serverName', 'No server was named.');
  const result = await callApi({
    answer: oauthSignInStarted,
    method: 'POST',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/oauth/sign-in`,
    body: { serverName },
  });
  if (!result.ok) return failure(result.problem, { serverName });
  const target = URL.canParse(result.data.authorizationUrl) ? new URL(result.data.authorizationUrl) : null;
  // The API built it from checked metadata; anything but a web address is still never followed.
  if (target === null || (target.protocol !== 'https:' && target.protocol !== 'http:')) {
    return invalid('serverName', 'The authorization server’s address is not a web address.');
  }
  redirect(target.href);
}

/**
 * Finishes a sign-in with the address the authorization server sent the browser back to, pasted by the person
 * (the API's callback does it when the browser carries the API's own session; the dashboard's browser does not).
 */
export async function completeSignInAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('signInToServers');
  if (refusal) return failure(refusal);
  const redirectUrl = textField(form, 'redirectUrl');
  if (redirectUrl === '') return invalid('redirectUrl', 'Paste the address your browser was sent back to.');
  if (redirectUrl.length > MAX_REDIRECT_CHARS || !URL.canParse(redirectUrl)) {
    return invalid(
      'redirectUrl',
      'Paste the whole address, starting with https:// (or http:// on loopback).',
    );
  }
  const result = await callApi({
    answer: oauthCredentialView,
    method: 'POST',
    path: '/v1/oauth/sign-in/complete',
    body: { redirectUrl },
  });
  // The pasted address holds a one-time code: it is never sent back into the form.
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`Signed in at ${result.data.issuer}.`);
}

export async function signOutAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('signInToServers');
  if (refusal) return failure(refusal);
  const credentialId = idField(form, 'credentialId');
  if (credentialId === undefined) return invalid('credentialId', 'No sign-in was named.');
  const result = await callApi({
    answer: oauthSignedOut,
    method: 'POST',
    path: `/v1/oauth/credentials/${encodeURIComponent(credentialId)}/sign-out`,
  });
  if (!result.ok) return failure(result.problem);
  // The form that asked is gone once the credential is (its row has nothing left to sign out of): the outcome
  // travels as a word in the address of the page the browser is sent back to.
  const workspaceId = idField(form, 'workspaceId');
  const outcome = new URLSearchParams({
    ...(workspaceId ? { workspace: workspaceId } : {}),
    signedOut: result.data.revokedAtIssuer ? 'revoked' : 'deleted',
  });
  redirect(`/connections?${outcome.toString()}`);
}

/**
 * Owners and admins: one of their own sign-ins becomes the workspace's service credential for a server whose
 * definition allows shared use. It moves (decision 0082): they are signed out of it themselves.
 */
export async function chooseServiceCredentialAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return failure(refusal);
  const workspaceId = idField(form, 'workspaceId');
  const credentialId = idField(form, 'credentialId');
  if (workspaceId === undefined || credentialId === undefined) {
    return invalid('credentialId', 'No sign-in was named.');
  }
  const result = await callApi({
    answer: oauthCredentialView,
    method: 'POST',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/oauth/service-credential`,
    body: { credentialId },
  });
  if (!result.ok) return failure(result.problem);
  // The person's own row is gone with the move, and the form with it: the outcome travels in the address.
  redirect(
    `/connections?${new URLSearchParams({ workspace: workspaceId, shared: result.data.id }).toString()}`,
  );
}

/**
 * Owners and admins: the workspace is signed out of one of its service credentials (decision 0098), with the
 * person's sign-out semantics: deleted first, its leases ended, then revoked at the issuer.
 */
export async function signOutServiceCredentialAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const refusal = await refuseUnless('manageWorkspaces');
  if (refusal) return failure(refusal);
  const workspaceId = idField(form, 'workspaceId');
  const credentialId = idField(form, 'credentialId');
  if (workspaceId === undefined || credentialId === undefined) {
    return invalid('credentialId', 'No service credential was named.');
  }
  const result = await callApi({
    answer: oauthSignedOut,
    method: 'POST',
    path: `/v1/workspaces/${encodeURIComponent(workspaceId)}/oauth/service-credentials/${encodeURIComponent(credentialId)}/sign-out`,
  });
  if (!result.ok) return failure(result.problem);
  // As for a person's sign-out: the row and its form are gone, so the outcome travels in the address.
  const outcome = new URLSearchParams({
    workspace: workspaceId,
    signedOut: result.data.revokedAtIssuer ? 'revoked' : 'deleted',
  });
  redirect(`/connections?${outcome.toString()}`);
}
