'use server';

import {
  acceptedInvitation,
  createdInvitation,
  invitationLinkAcceptedView,
  invitationPreviewView,
  invitationView,
  signInView,
} from '@gatehouse/contracts';
import { refresh } from 'next/cache';
import { redirect } from 'next/navigation';
import type { InvitationPreviewView, InvitationView } from '@/views/invitation-views';
import { refuseUnless } from '../action-guard';
import { failure, success, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem, problemFromResponse, type ApiProblem } from '../api-problem';
import { apiSessionCookieFrom } from '../api-session-cookie';
import { idField, textField } from '../form-data';
import { storeSessionCredentials } from '../session-cookies';

// Invitations (decision 0030). The second place a secret reaches the browser: the new invitation's secret,
// returned once to the form that created it, inside the link the inviter sends. The accept page reads the
// secret from the link's fragment (never sent to any server in a URL) and hands it to these actions.

const SECRET_SHAPE = /^ghi_[0-9A-Za-z]{43}$/;

export type CreateInvitationState =
  | ActionState
  | {
      readonly status: 'created';
      readonly invitation: InvitationView;
      readonly secret: string;
      readonly at: number;
    };

export async function createInvitationAction(
  _previous: CreateInvitationState,
  form: FormData,
): Promise<CreateInvitationState> {
  const refusal = await refuseUnless('manageMembers');
  if (refusal) return failure(refusal);
  const email = textField(form, 'email');
  const role = textField(form, 'role');
  const result = await callApi({
    answer: createdInvitation,
    method: 'POST',
    path: '/v1/invitations',
    body: { email, role },
  });
  if (!result.ok) return failure(result.problem, { email, role });
  refresh();
  return {
    status: 'created',
    invitation: result.data.invitation,
    secret: result.data.secret,
    at: Date.now(),
  };
}

export async function revokeInvitationAction(_previous: ActionState, form: FormData): Promise<ActionState> {
  const refusal = await refuseUnless('manageMembers');
  if (refusal) return failure(refusal);
  const invitationId = idField(form, 'invitationId');
  if (invitationId === undefined) {
    return failure(invalidInputProblem([{ path: 'invitationId', message: 'No invitation was named.' }]));
  }
  const result = await callApi({
    answer: invitationView,
    method: 'DELETE',
    path: `/v1/invitations/${invitationId}`,
  });
  if (!result.ok) return failure(result.problem);
  refresh();
  return success(`The invitation of ${result.data.email} is revoked: its link no longer works.`);
}

function badLink(): ApiProblem {
  return invalidInputProblem([{ path: 'secret', message: 'This is not an invitation link.' }]);
}

export type PreviewResult =
  | { readonly ok: true; readonly preview: InvitationPreviewView }
  | { readonly ok: false; readonly problem: ApiProblem };

export async function previewInvitationAction(secret: string): Promise<PreviewResult> {
  if (!SECRET_SHAPE.test(secret)) return { ok: false, problem: badLink() };
  const result = await callApi({
    answer: invitationPreviewView,
    method: 'POST',
    path: '/v1/auth/invitations/preview',
    body: { secret },
    auth: 'none',
  });
  return result.ok ? { ok: true, preview: result.data } : { ok: false, problem: result.problem };
}

/** Signed in already (possibly in another tenant): accept as that account. */
export async function acceptInvitationSignedInAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const secret = textField(form, 'secret');
  if (!SECRET_SHAPE.test(secret)) return failure(badLink());
  const result = await callApi({
    answer: acceptedInvitation,
    method: 'POST',
    path: '/v1/invitations/accept',
    body: { secret },
  });
  if (!result.ok) return failure(result.problem);
  return success(
    `You joined ${result.data.tenant.name} as ${result.data.role}. Sign out and sign in choosing ${result.data.tenant.slug} to work there.`,
  );
}

/**
 * Not signed in: accept with the password of the invited address's account, or create that account (with a
 * display name). Then sign in to the inviting tenant.
 */
export async function acceptInvitationWithPasswordAction(
  _previous: ActionState,
  form: FormData,
): Promise<ActionState> {
  const secret = textField(form, 'secret');
  if (!SECRET_SHAPE.test(secret)) return failure(badLink());
  // Passwords are not trimmed: spaces may be part of them.
  const rawPassword = form.get('password');
  const password = typeof rawPassword === 'string' ? rawPassword : '';
  const displayName = textField(form, 'displayName');
  if (password === '') {
    return failure(invalidInputProblem([{ path: 'password', message: 'Enter a password.' }]), {
      displayName,
    });
  }
  const accepted = await callApi({
    answer: invitationLinkAcceptedView,
    method: 'POST',
    path: '/v1/auth/invitations/accept',
    body: { secret, password, ...(displayName !== '' ? { displayName } : {}) },
    auth: 'none',
  });
  if (!accepted.ok) return failure(accepted.problem, { displayName });

  const signedIn = await callApi({
    answer: signInView,
    method: 'POST',
    path: '/v1/auth/login',
    body: { email: accepted.data.email, password, tenant: accepted.data.tenant.slug },
    auth: 'none',
  });
  if (!signedIn.ok) {
    return success(`You joined ${accepted.data.tenant.name} as ${accepted.data.role}. Sign in to continue.`);
  }
  const cookie = apiSessionCookieFrom(signedIn.headers.getSetCookie());
  if (cookie === undefined) return failure(problemFromResponse(502, { title: 'No session cookie' }));
  await storeSessionCredentials(
    { sessionId: cookie.sessionId, csrfToken: signedIn.data.csrfToken },
    cookie.maxAgeSeconds,
  );
  redirect('/overview');
}
