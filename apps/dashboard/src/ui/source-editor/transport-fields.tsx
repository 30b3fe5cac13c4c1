'use client';

import { TextField, formStyles } from '@/ui/form-fields';
import { KeyedRowsField } from './keyed-rows-field';
import type { EntryForm } from './source-document';

// The fields of the entry's transport: command, arguments, cwd and env for stdio; URL and headers for HTTP.
export function TransportFields({
  form,
  onChange,
  error,
}: {
  form: EntryForm;
  onChange: (form: EntryForm) => void;
  /** The message to show at a field, if any. */
  error: (field: string) => string | undefined;
}) {
  return form.transport === 'stdio' ? (
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
  );
}
