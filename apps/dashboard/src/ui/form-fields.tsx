import type { ComponentProps, InputHTMLAttributes, ReactNode, SelectHTMLAttributes } from 'react';
import { describedBy, FieldError, FieldHint } from './field-messages';
import styles from './form.module.css';

// Labelled form controls. Every control has a visible <label>; hints and errors are tied to it with
// aria-describedby, and a field with an error is aria-invalid, so screen readers read what to fix.

export const formStyles = styles;

type TextFieldProps = ComponentProps<'input'> & {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
  /** Monospaced value (tokens, ids). */
  mono?: boolean;
};

export function TextField({ id, label, hint, error, className, mono, ...input }: TextFieldProps) {
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <input
        {...input}
        id={id}
        className={mono ? `${styles.input} mono` : styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

type TextAreaFieldProps = ComponentProps<'textarea'> & {
  id: string;
  label: string;
  hint?: ReactNode;
  error?: string;
};

export function TextAreaField({ id, label, hint, error, className, ...textarea }: TextAreaFieldProps) {
  return (
    <div className={[styles.field, className].filter(Boolean).join(' ')}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      <textarea
        {...textarea}
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      />
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

type SelectFieldProps = SelectHTMLAttributes<HTMLSelectElement> & {
  id: string;
  label: string;
  options: readonly { value: string; label: string }[];
  hint?: ReactNode;
  error?: string;
  hideLabel?: boolean;
};

export function SelectField({ id, label, options, hint, error, hideLabel, ...select }: SelectFieldProps) {
  return (
    <div className={styles.field}>
      <label className={hideLabel ? 'visually-hidden' : styles.label} htmlFor={id}>
        {label}
      </label>
      <select
        {...select}
        id={id}
        className={styles.select}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldHint id={id} hint={hint} />
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A group of checkboxes or radios with a legend (a fieldset, so the group has one accessible name). */
export function ChoiceGroup({
  legend,
  hint,
  error,
  id,
  children,
}: {
  legend: string;
  hint?: ReactNode;
  error?: string;
  id: string;
  children: ReactNode;
}) {
  return (
    <fieldset className={styles.fieldset} aria-describedby={describedBy(id, hint, error)}>
      <legend>{legend}</legend>
      <FieldHint id={id} hint={hint} />
      <div className={styles.choices}>{children}</div>
      <FieldError id={id} error={error} />
    </fieldset>
  );
}

type ChoiceProps = InputHTMLAttributes<HTMLInputElement> & {
  type: 'checkbox' | 'radio';
  label: ReactNode;
  description?: ReactNode;
};

export function Choice({ label, description, ...input }: ChoiceProps) {
  return (
    <label className={styles.choice}>
      <input {...input} />
      <span className={styles.choiceText}>
        <span>{label}</span>
        {description ? <span className={styles.hint}>{description}</span> : null}
      </span>
    </label>
  );
}
