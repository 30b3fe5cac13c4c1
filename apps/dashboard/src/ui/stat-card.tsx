import Link from 'next/link';
import type { ApiProblem } from '../server/api-problem';
import styles from './overview.module.css';

/** One count on the overview; a failed count says so with its code instead of a number. */
export function StatCard({
  label,
  value,
  note,
  href,
  problem,
}: {
  label: string;
  value?: string | number;
  note?: string;
  href?: string;
  problem?: ApiProblem;
}) {
  const body = (
    <>
      <span className={styles.statLabel}>{label}</span>
      {problem ? (
        <span className={styles.statNote} role="alert">
          Could not load ({problem.code})
        </span>
      ) : (
        <span className={styles.statValue}>{value}</span>
      )}
      {note && !problem ? <span className={styles.statNote}>{note}</span> : null}
    </>
  );
  return href ? (
    <Link className={styles.stat} href={href}>
      {body}
    </Link>
  ) : (
    <div className={styles.stat}>{body}</div>
  );
}
