'use client';

import * as AlertDialog from '@radix-ui/react-alert-dialog';
import { useActionState, useEffect, useRef, useState, type ReactNode } from 'react';
import { IDLE, type ActionState } from '../server/action-state';
import { Button, type ButtonSize, type ButtonVariant } from './button';
import styles from './dialog.module.css';
import { ProblemCallout } from './feedback';
import { SubmitButton } from './submit-button';

/**
 * A consequential action behind a confirmation that says what will happen (Radix AlertDialog: focus is
 * trapped in the dialog and starts on Cancel, Escape cancels, focus returns to the trigger). Confirming submits
 * a form to the server action; an error stays in the dialog, where it happened, with the API's code; success
 * closes the dialog and is announced next to the trigger.
 */
export function ConfirmAction({
  trigger,
  triggerVariant = 'secondary',
  triggerSize = 'small',
  title,
  description,
  confirmLabel,
  confirmVariant = 'primary',
  action,
  fields,
  children,
}: {
  trigger: string;
  triggerVariant?: ButtonVariant;
  triggerSize?: ButtonSize;
  title: string;
  description: ReactNode;
  confirmLabel: string;
  confirmVariant?: ButtonVariant;
  action: (previous: ActionState, form: FormData) => Promise<ActionState>;
  /** Hidden inputs of the form (ids, the value to set). */
  fields: Readonly<Record<string, string>>;
  /** Visible fields of the form (a reason), above its buttons. */
  children?: ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const [state, formAction] = useActionState(action, IDLE);
  const handled = useRef(0);

  useEffect(() => {
    if (state.status === 'success' && state.at !== handled.current) {
      handled.current = state.at;
      setOpen(false);
    }
  }, [state]);

  return (
    <span className="row">
      <AlertDialog.Root open={open} onOpenChange={setOpen}>
        <AlertDialog.Trigger asChild>
          <Button variant={triggerVariant} size={triggerSize}>
            {trigger}
          </Button>
        </AlertDialog.Trigger>
        <AlertDialog.Portal>
          <AlertDialog.Overlay className={styles.overlay} />
          <AlertDialog.Content className={styles.content}>
            <AlertDialog.Title className={styles.title}>{title}</AlertDialog.Title>
            <AlertDialog.Description asChild>
              <div className={styles.description}>{description}</div>
            </AlertDialog.Description>
            {state.status === 'error' && open ? <ProblemCallout problem={state.problem} /> : null}
            <form action={formAction} className={children ? styles.fields : styles.footer}>
              {Object.entries(fields).map(([name, value]) => (
                <input key={name} type="hidden" name={name} value={value} />
              ))}
              {children}
              <div className={styles.footer}>
                <AlertDialog.Cancel asChild>
                  <Button variant="secondary">Cancel</Button>
                </AlertDialog.Cancel>
                <SubmitButton variant={confirmVariant}>{confirmLabel}</SubmitButton>
              </div>
            </form>
          </AlertDialog.Content>
        </AlertDialog.Portal>
      </AlertDialog.Root>
      {state.status === 'success' ? (
        <span className={styles.outcome} role="status">
          {state.message}
        </span>
      ) : null}
    </span>
  );
}
