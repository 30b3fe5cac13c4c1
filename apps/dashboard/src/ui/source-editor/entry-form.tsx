'use client';

import { Button } from '@/ui/button';
import { Callout } from '@/ui/feedback';
import { Choice, ChoiceGroup, TextField } from '@/ui/form-fields';
import { entryOf, variablesOf, type EntryForm } from './source-document';
import styles from './source-editor.module.css';
import { TransportFields } from './transport-fields';
import { UnsetVariables } from './unset-variables';

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
      <TransportFields form={form} onChange={onChange} error={error} />
      {unset.length > 0 ? <UnsetVariables unset={unset} variablesHref={variablesHref} /> : null}
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
