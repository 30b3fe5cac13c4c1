'use client';

import { useActionState, useState } from 'react';
import { IDLE, type ActionState } from '@/server/action-state';
import { putHostPolicyAction } from '@/server/actions/host-policy.actions';
import type { ListField } from '@/server/host-policy-input';
import { messageInWords } from '@/server/problem-words';
import { ActionFeedback } from '../action-feedback';
import { Choice, formStyles } from '../form-fields';
import { SubmitButton } from '../submit-button';
import styles from './host-policy.module.css';

function errorsFor(state: ActionState, field: string): string[] {
  if (state.status !== 'error') return [];
  return state.problem.errors
    .filter((error) => error.path === field)
    .map((error) => messageInWords(error.message));
}

/** A textarea of one entry per line, with its hint and every error of its lines tied to it. */
function LinesField({
  field,
  label,
  hint,
  value,
  onChange,
  state,
  placeholder,
}: {
  field: ListField;
  label: string;
  hint: string;
  value: string;
  onChange: (value: string) => void;
  state: ActionState;
  placeholder: string;
}) {
  const id = `host-policy-${field}`;
  const errors = errorsFor(state, field);
  const invalid = errors.length > 0;
  return (
    <div className={styles.field}>
      <label className={formStyles.label} htmlFor={id}>
        {label}
      </label>
      <span id={`${id}-hint`} className={formStyles.hint}>
        {hint}
      </span>
      <textarea
        id={id}
        name={field}
        className={styles.lines}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        rows={4}
        aria-invalid={invalid ? true : undefined}
        aria-describedby={invalid ? `${id}-hint ${id}-error` : `${id}-hint`}
      />
      {invalid ? (
        <ul id={`${id}-error`} className={styles.fieldErrors} data-field-error={field}>
          {errors.map((message) => (
            <li key={message}>{message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

/**
 * The editor of the tenant's HostPolicy: one entry per line (commands as JSON arrays of argv strings), and the
 * four-eyes switch. Controlled fields, so a refused save keeps what was typed; errors name their line.
 */
export function HostPolicyForm({
  initial,
}: {
  initial: {
    readonly stdioCommands: string;
    readonly headerHelpers: string;
    readonly privateCidrs: string;
    readonly traceContextOrigins: string;
    readonly fourEyes: boolean;
  };
}) {
  const [state, action] = useActionState(putHostPolicyAction, IDLE);
  const [stdioCommands, setStdioCommands] = useState(initial.stdioCommands);
  const [headerHelpers, setHeaderHelpers] = useState(initial.headerHelpers);
  const [privateCidrs, setPrivateCidrs] = useState(initial.privateCidrs);
  const [traceContextOrigins, setTraceContextOrigins] = useState(initial.traceContextOrigins);
  const [fourEyes, setFourEyes] = useState(initial.fourEyes);
  const argvHint =
    'One per line, as a JSON array of the exact argv prefix, e.g. ["npx", "-y", "@acme/deploy-mcp"]. A command runs only if its argv starts with one of these.';
  return (
    <form action={action} className="stack-sm">
      <ActionFeedback state={state} context="The host policy was not saved" />
      <LinesField
        field="stdioCommands"
        label="Stdio commands"
        hint={argvHint}
        value={stdioCommands}
        onChange={setStdioCommands}
        state={state}
        placeholder='["npx", "-y", "@acme/deploy-mcp"]'
      />
      <LinesField
        field="headerHelpers"
        label="Header helpers"
        hint='Commands that print request headers for http servers. Same format, e.g. ["/usr/local/bin/vault-headers"].'
        value={headerHelpers}
        onChange={setHeaderHelpers}
        state={state}
        placeholder='["/usr/local/bin/vault-headers"]'
      />
      <LinesField
        field="privateCidrs"
        label="Private ranges"
        hint="One CIDR per line, each within a range the operator lets tenants opt into. Cloud metadata ranges are never allowed."
        value={privateCidrs}
        onChange={setPrivateCidrs}
        state={state}
        placeholder="10.20.0.0/16"
      />
      <LinesField
        field="traceContextOrigins"
        label="Trace context origins"
        hint="One origin per line (scheme://host[:port]) that receives W3C trace context headers."
        value={traceContextOrigins}
        onChange={setTraceContextOrigins}
        state={state}
        placeholder="https://otel.example.com"
      />
      <Choice
        type="checkbox"
        name="fourEyes"
        checked={fourEyes}
        onChange={(event) => setFourEyes(event.target.checked)}
        label="Four-eyes approvals"
        description="The author of a change cannot approve it: someone else must."
      />
      <div>
        <SubmitButton pendingLabel="Saving…">Save host policy</SubmitButton>
      </div>
    </form>
  );
}
