/**
 * A timestamp as the server renders it: one unambiguous format (ISO date, 24-hour time) in UTC, like the
 * API's logs and the audit chain, so what the dashboard shows can be matched against them.
 */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

export function DateTime({ value, fallback = '—' }: { value: string | null; fallback?: string }) {
  if (value === null) return <span className="muted">{fallback}</span>;
  return (
    <time dateTime={value} className="nowrap">
      {formatDateTime(value)}
    </time>
  );
}
