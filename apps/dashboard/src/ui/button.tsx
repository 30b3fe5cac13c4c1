import Link from 'next/link';
import type { ButtonHTMLAttributes, ComponentProps } from 'react';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'danger' | 'dangerOutline';
export type ButtonSize = 'medium' | 'small';

export function buttonClassName(variant: ButtonVariant = 'secondary', size: ButtonSize = 'medium'): string {
  return [styles.button, styles[variant], size === 'small' ? styles.small : ''].filter(Boolean).join(' ');
}

type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & { variant?: ButtonVariant; size?: ButtonSize };

/** A native button (never a div): keyboard, focus and form submission come from the platform. */
export function Button({ variant, size, className, type = 'button', ...rest }: ButtonProps) {
  return (
    <button
      {...rest}
      type={type}
      className={[buttonClassName(variant, size), className].filter(Boolean).join(' ')}
    />
  );
}

type ButtonLinkProps = ComponentProps<typeof Link> & { variant?: ButtonVariant; size?: ButtonSize };

/** Navigation that looks like a button stays a link (it goes somewhere; it does not do something). */
export function ButtonLink({ variant, size, className, ...rest }: ButtonLinkProps) {
  return <Link {...rest} className={[buttonClassName(variant, size), className].filter(Boolean).join(' ')} />;
}
