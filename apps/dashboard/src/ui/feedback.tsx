import type { ReactNode } from 'react';
import type { ApiProblem } from '../server/api-problem';
import { problemInWords } from '../server/problem-words';
import styles from './feedback.module.css';

/**
 * An error shown where it happened: the form, dialog or section whose call failed. It says, in words, what went
 * wrong, what to do next and which fields to fix (by their labels, never their keys or a validator's raw text:
 * problem-words.ts), and names the stable `code` (what to search for in docs and logs). `labels` names the
 * fields of the form it sits in, where they differ from the common ones.
 */
export function ProblemCallout({
  problem,
  context,
  labels,
}: {
  problem: ApiProblem;
  context?: string;
  labels?: Readonly<Record<string, string>>;
}) {
  const words = problemInWords(problem, labels);
  return (
    <div className={`${styles.callout} ${styles.error}`} role="alert" data-problem-code={problem.code}>
      <p className={styles.title}>{context ? `${context}: ${words.title}` : words.title}</p>
      {words.detail ? <p>{words.detail}</p> : null}
      {words.fields.length > 0 ? (
        <ul>
          {words.fields.map((field) => (
            <li key={`${field.path}:${field.message}`} data-problem-field={field.path}>
              <strong>{field.label}</strong>: {field.message}
            </li>
          ))}
        </ul>
      ) : null}
      <p data-problem-next-step>{words.nextStep}</p>
      <p className={styles.meta}>
        <span>Error code</span>
        <span className={styles.code}>{problem.code}</span>
        {problem.status !== null ? <span className="muted">HTTP {problem.status}</span> : null}
      </p>
    </div>
  );
}

export function Callout({
  tone,
  title,
  children,
  live = false,
}: {
  tone: 'success' | 'warning' | 'info';
  title?: string;
  children?: ReactNode;
  /** Announced by screen readers when it appears (the outcome of an action). */
  live?: boolean;
}) {
  return (
    <div className={`${styles.callout} ${styles[tone]}`} role={live ? 'status' : undefined}>
      {title ? <p className={styles.title}>{title}</p> : null}
      {children}
    </div>
  );
}

export type BadgeTone = 'neutral' | 'positive' | 'caution' | 'negative' | 'accent';

export function Badge({ tone = 'neutral', children }: { tone?: BadgeTone; children: ReactNode }) {
  return <span className={`${styles.badge} ${tone === 'neutral' ? '' : styles[tone]}`}>{children}</span>;
}

/** What an empty list says: what it is for, and what to do next. */
export function EmptyState({
  title,
  children,
  action,
}: {
  title: string;
  children: ReactNode;
  action?: ReactNode;
}) {
  return (
    <div className={styles.empty}>
      <h3>{title}</h3>
      <p>{children}</p>
      {action ? <div className={styles.emptyAction}>{action}</div> : null}
    </div>
  );
}

/** A titled section of a page; `id` names it for assistive technology (and for tests). */
export function Panel({
  id,
  title,
  description,
  actions,
  children,
  headingLevel = 2,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  headingLevel?: 2 | 3;
}) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className={styles.panel} aria-labelledby={`${id}-title`} id={id}>
      <div className={styles.panelHeader}>
        <div className="stack-sm">
          <Heading id={`${id}-title`}>{title}</Heading>
          {description ? <p>{description}</p> : null}
        </div>
        {actions ? <div className="row">{actions}</div> : null}
      </div>
      {children}
    </section>
  );
}
