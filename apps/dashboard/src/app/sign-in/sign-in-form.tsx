'use client';

import { useActionState } from 'react';
import { fieldError } from '@/server/action-state';
import { signInAction, type SignInState } from '@/server/actions/auth.actions';
import { ProblemCallout } from '@/ui/feedback';
import { SelectField, TextField, formStyles } from '@/ui/form-fields';
import { SubmitButton } from '@/ui/submit-button';

const INITIAL: SignInState = { status: 'idle' };

export function SignInForm({ returnTo }: { returnTo: string }) {
  const [state, action] = useActionState(signInAction, INITIAL);
  const tenants = state.status === 'error' ? (state.tenants ?? []) : [];
  return (
    <form action={action} className={formStyles.form} noValidate>
      {state.status === 'error' ? <ProblemCallout problem={state.problem} context="Sign-in failed" /> : null}
      <input type="hidden" name="next" value={returnTo} />
      <TextField
        id="email"
        name="email"
        type="email"
        label="Email"
        autoComplete="username"
        required
        defaultValue={state.email ?? ''}
        error={fieldError(state, 'email')}
      />
      <TextField
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="current-password"
        required
        error={fieldError(state, 'password')}
      />
      {tenants.length > 0 ? (
        <SelectField
          id="tenant"
          name="tenant"
          label="Tenant"
          hint="Your account belongs to several tenants: pick the one to sign in to."
          options={tenants.map((slug) => ({ value: slug, label: slug }))}
        />
      ) : null}
      <SubmitButton pendingLabel="Signing in…">Sign in</SubmitButton>
    </form>
  );
}
