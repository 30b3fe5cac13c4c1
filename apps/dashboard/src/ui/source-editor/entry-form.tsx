'use client';

import Link from 'next/link';
import { Button } from '../button';
import { Callout } from '../feedback';
import { Choice, ChoiceGroup, TextField, formStyles } from '../form-fields';
import { KeyedRowsField } from './keyed-rows-field';
import { entryOf, variablesOf, type EntryForm } from './source-document';
import styles from './source-editor.module.css';

/**
 * One server entry as a form: its name, the transport, then that transport's fields (command, arguments, cwd
 * and env; or URL and headers). Field errors come from two places and show at their field: what the form
 * cannot send (`local`) and what the API's decoder refused in the save preview (`decoded`). Variables the entry
 * reads that are not set anywhere it could read them are named, with where to set them.
 */
export function EntryFormView({
  form,
  before,
  local,
  decoded,
  setVariables,
  variablesHref,
  isNew,
  onChange,
  onApply,
  onCancel,
}: {
  form: EntryForm;
  before: 'stdio' | 'http' | null;
  local: Readonly<Record<string, string>>;
  decoded: Readonly<Record<string, string>>;
  setVariables: readonly string[];
  variablesHref: string;
  isNew: boolean;
  onChange: (form: EntryForm) => void;
  onApply: () => void;
  onCancel: () => void;
}) {
  const error = (field: string) => local[field] ?? decoded[field];
  const unset = variablesOf(entryOf(form, before)).filter((use) => !setVariables.includes(use.name));
  return (
    <div className={styles.form} role="group" aria-labelledby="entry-form-title">
      <h3 id="entry-form-title">{isNew ? 'New server' : `Edit ${form.name}`}</h3>
      {decoded['entry'] ? (
        <Callout tone="warning" title="The API refuses this entry">
          <p data-field-error="entry">{decoded['entry']}</p>
        </Callout>
      ) : null}
      <TextField
        id="entry-name"
        label="Name"
        hint="How agents see it: tools are named mcp__<name>__<tool>."
        value={form.name}
        onChange={(event) => onChange({ ...form, name: event.target.value })}
        error={error('name')}
        maxLength={128}
        autoComplete="off"
        required
      />
      <ChoiceGroup id="entry-transport" legend="Transport" error={error('transport')}>
        <Choice
          type="radio"
          name="entry-transport"
          label="Local command (stdio)"
          description="A process the worker starts, on pools whose operator allows stdio."
          checked={form.transport === 'stdio'}
          onChange={() => onChange({ ...form, transport: 'stdio' })}
        />
        <Choice
          type="radio"
          name="entry-transport"
          label="Remote server (Streamable HTTP)"
          description="An https URL the gateway connects to."
          checked={form.transport === 'http'}
          onChange={() => onChange({ ...form, transport: 'http' })}
        />
      </ChoiceGroup>
      {form.transport === 'stdio' ? (
        <>
          <TextField
            id="entry-command"
            label="Command"
            hint="The program only, for example npx or /usr/local/bin/tools-mcp."
            value={form.command}
            onChange={(event) => onChange({ ...form, command: event.target.value })}
            error={error('command')}
            mono
            spellCheck={false}
            autoComplete="off"
          />
          <div className={formStyles.field}>
            <label className={formStyles.label} htmlFor="entry-args">
              Arguments
            </label>
            <span id="entry-args-hint" className={formStyles.hint}>
              One per line, exactly as passed (no shell: quotes and spaces are part of the argument).
            </span>
            <textarea
              id="entry-args"
              className={`${formStyles.input} mono`}
              rows={4}
              value={form.args}
              onChange={(event) => onChange({ ...form, args: event.target.value })}
              spellCheck={false}
              aria-invalid={error('args') ? true : undefined}
              aria-describedby={error('args') ? 'entry-args-hint entry-args-error' : 'entry-args-hint'}
            />
            {error('args') ? (
              <span id="entry-args-error" className={formStyles.error} data-field-error="args">
                {error('args')}
              </span>
            ) : null}
          </div>
          <TextField
            id="entry-cwd"
            label="Working directory (optional)"
            hint="Empty: the pool's allowed root."
            value={form.cwd}
            onChange={(event) => onChange({ ...form, cwd: event.target.value })}
            error={error('cwd')}
            mono
            spellCheck={false}
            autoComplete="off"
          />
          <KeyedRowsField
            id="entry-env"
            legend="Environment variables"
            keyLabel="Variable"
            rows={form.env}
            error={error('env')}
            onChange={(env) => onChange({ ...form, env })}
          />
        </>
      ) : (
        <>
          <TextField
            id="entry-url"
            label="URL"
            hint="https, for example https://mcp.example.com/mcp."
            value={form.url}
            onChange={(event) => onChange({ ...form, url: event.target.value })}
            error={error('url')}
            mono
            spellCheck={false}
            autoComplete="off"
            inputMode="url"
          />
          <KeyedRowsField
            id="entry-headers"
            legend="Headers"
            keyLabel="Header"
            rows={form.headers}
            error={error('headers')}
            onChange={(headers) => onChange({ ...form, headers })}
          />
        </>
      )}
      {unset.length > 0 ? (
        <Callout tone="warning" title="Variable not set">
          <ul className={styles.warnings} aria-label="Variables not set">
            {unset.map((use) => (
              <li key={use.name} data-unset-variable={use.name}>
                <code>{use.name}</code> is not set:{' '}
                {use.hasDefault
                  ? 'its default is used until it is.'
                  : 'the server does not resolve until it is.'}
              </li>
            ))}
          </ul>
          <p>
            <Link href={variablesHref}>Set variables</Link>
          </p>
        </Callout>
      ) : null}
      <div className={styles.actions}>
        <Button variant="primary" onClick={onApply}>
          {isNew ? 'Add to document' : 'Apply to document'}
        </Button>
        <Button variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </div>
  );
}
