'use client';

import { useActionState, useState } from 'react';
import { fieldError, submitted, submittedList } from '@/server/action-state';
import { createTokenAction, type CreateTokenState } from '@/server/actions/token.actions';
import {
  KIND_SCOPE_CEILING,
  KIND_SUMMARIES,
  TENANT_TOKEN_KINDS,
  type TenantTokenKind,
} from '@/views/token-kinds';
import { ActionFeedback } from '@/ui/action-feedback';
import { ButtonLink } from '@/ui/button';
import { Choice, ChoiceGroup, SelectField, TextField, formStyles } from '@/ui/form-fields';
import { SubmitButton } from '@/ui/submit-button';
import { CreatedToken } from './created-token';

const INITIAL: CreateTokenState = { status: 'idle' };

const EXPIRY_OPTIONS = [
  { value: '30', label: '30 days' },
  { value: '7', label: '7 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: '', label: 'Never' },
];

export function NewTokenForm({
  heldScopes,
  allowServiceKinds,
  workspaces,
}: {
  /** The creator's own scopes: a user token never carries more. */
  heldScopes: readonly string[];
  allowServiceKinds: boolean;
  workspaces: readonly { id: string; name: string }[];
}) {
  const [state, action] = useActionState(createTokenAction, INITIAL);
  const [kind, setKind] = useState<TenantTokenKind>('user');

  if (state.status === 'created') return <CreatedToken token={state.token} secret={state.secret} />;

  const ceiling = KIND_SCOPE_CEILING[kind];
  const offered = kind === 'user' ? ceiling.filter((scope) => heldScopes.includes(scope)) : ceiling;
  const kinds = TENANT_TOKEN_KINDS.filter((candidate) => candidate === 'user' || allowServiceKinds);

  return (
    <form action={action} className={formStyles.form}>
      <ActionFeedback state={state} context="The token was not created" />
      <TextField
        id="token-name"
        name="name"
        label="Name"
        required
        maxLength={100}
        defaultValue={submitted(state, 'name')}
        hint="What uses it, e.g. “ci-deploy” or “laptop-cli”."
        error={fieldError(state, 'name')}
      />
      <ChoiceGroup id="token-kind" legend="Kind" error={fieldError(state, 'kind')}>
        {kinds.map((candidate) => (
          <Choice
            key={candidate}
            type="radio"
            name="kind"
            value={candidate}
            checked={kind === candidate}
            onChange={() => setKind(candidate)}
            label={candidate}
            description={KIND_SUMMARIES[candidate]}
          />
        ))}
      </ChoiceGroup>
      <ChoiceGroup
        id="token-scopes"
        legend="Scopes"
        hint={
          kind === 'user' ? 'At most the scopes you hold yourself.' : `What a ${kind} token may ever hold.`
        }
        error={fieldError(state, 'scopes')}
      >
        {offered.map((scope) => (
          <Choice
            key={`${kind}-${scope}`}
            type="checkbox"
            name="scopes"
            value={scope}
            defaultChecked={submittedList(state, 'scopes').includes(scope)}
            label={<code>{scope}</code>}
          />
        ))}
      </ChoiceGroup>
      {kind !== 'user' ? (
        <ChoiceGroup
          id="token-workspaces"
          legend="Workspaces"
          hint={
            kind === 'agent'
              ? 'Required: the workspaces the agent works in.'
              : 'Optional: limit the worker to these workspaces.'
          }
          error={fieldError(state, 'workspaceIds')}
        >
          {workspaces.length === 0 ? (
            <span className="muted">No workspaces yet: create one first.</span>
          ) : (
            workspaces.map((workspace) => (
              <Choice
                key={workspace.id}
                type="checkbox"
                name="workspaceIds"
                value={workspace.id}
                defaultChecked={submittedList(state, 'workspaceIds').includes(workspace.id)}
                label={workspace.name}
              />
            ))
          )}
        </ChoiceGroup>
      ) : null}
      {kind === 'worker' ? (
        <TextField
          id="token-pool"
          name="pool"
          label="Worker pool"
          defaultValue={submitted(state, 'pool', 'default')}
          required
          hint="A pool the operator opened to this tenant (WORKER_POOLS)."
          error={fieldError(state, 'pool')}
        />
      ) : null}
      <SelectField
        id="token-expiry"
        name="expiresInDays"
        label="Expires after"
        options={EXPIRY_OPTIONS}
        defaultValue={submitted(state, 'expiresInDays', '30')}
        error={fieldError(state, 'expiresInDays')}
      />
      <div className={formStyles.actions}>
        <SubmitButton pendingLabel="Creating…">Create token</SubmitButton>
        <ButtonLink href="/tokens" variant="ghost">
          Cancel
        </ButtonLink>
      </div>
    </form>
  );
}
