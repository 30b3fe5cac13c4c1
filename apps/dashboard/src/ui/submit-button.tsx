'use client';

import { useFormStatus } from 'react-dom';
import type { ReactNode } from 'react';
import { buttonClassName, type ButtonSize, type ButtonVariant } from './button';

/** The submit button of a server-action form: disabled and announced as busy while the action runs. */
export function SubmitButton({
  children,
  pendingLabel,
  variant = 'primary',
  size,
  name,
  value,
}: {
  children: ReactNode;
  pendingLabel?: string;
  variant?: ButtonVariant;
  size?: ButtonSize;
  name?: string;
  value?: string;
}) {
  const { pending } = useFormStatus();
  return (
    <button
      type="submit"
      className={buttonClassName(variant, size)}
      disabled={pending}
      aria-busy={pending}
      name={name}
      value={value}
    >
      {pending ? (pendingLabel ?? 'Working…') : children}
    </button>
  );
}
