'use server';

import { signInView } from '@gatehouse/contracts';
import { z } from 'zod';
import { redirect } from 'next/navigation';
import { failure, type ActionState } from '../action-state';
import { callApi } from '../api-client';
import { invalidInputProblem, problemFromResponse } from '../api-problem';
import { apiSessionCookieFrom } from '../api-session-cookie';
import { safeReturnPath, textField } from '../form-data';
import { clearSessionCredentials, storeSessionCredentials } from '../session-cookies';

/** Sign-in result: as ActionState, plus what the form shows again (never the password). */
export type SignInState = ActionState & { readonly email?: string; readonly tenants?: readonly string[] };

export async function signInAction(_previous: SignInState, form: FormData): Promise<SignInState> {
  const email = textField(form, 'email');
  // Passwords are not trimmed: spaces may be part of them.
  const rawPassword = form.get('password');
  const password = typeof rawPassword === 'string' ? rawPassword : '';
  const tenant = textField(form, 'tenant');
  const missing = [
    ...(email === '' ? [{ path: 'email', message: 'Enter your email address.' }] : []),
    ...(password === '' ? [{ path: 'password', message: 'Enter your password.' }] : []),
  ];
  if (missing.length > 0) return { ...failure(invalidInputProblem(missing)), email };

  const result = await callApi({
    answer: signInView,
    method: 'POST',
    path: '/v1/auth/login',
    body: { email, password, ...(tenant !== '' ? { tenant } : {}) },
    auth: 'none',
  });
  if (!result.ok) return { ...failure(result.problem), email, tenants: result.problem.tenants };

  const cookie = apiSessionCookieFrom(result.headers.getSetCookie());
  if (cookie === undefined) {
    return { ...failure(problemFromResponse(502, { title: 'No session cookie' })), email };
  }
  await storeSessionCredentials(
    { sessionId: cookie.sessionId, csrfToken: result.data.csrfToken },
    cookie.maxAgeSeconds,
  );
  redirect(safeReturnPath(textField(form, 'next')));
}

/**
 * Ends the session at the API, then forgets it here whatever the API said: a person who clicks "Sign out"
 * must be signed out of this browser even when the API is down (the API session then lapses on its own).
 */
export async function signOutAction(): Promise<void> {
  const result = await callApi({ answer: z.undefined(), method: 'POST', path: '/v1/auth/logout', body: {} });
  await clearSessionCredentials();
  redirect(
    result.ok || result.problem.status === 401
      ? '/sign-in?reason=signed-out'
      : '/sign-in?reason=signed-out-locally',
  );
}
