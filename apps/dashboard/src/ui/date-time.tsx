const FORMAT = new Intl.DateTimeFormat('en-GB', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  timeZone: 'UTC',
  hour12: false,
});

/** A timestamp as the server renders it: one format, in UTC (logs and the audit chain are in UTC too). */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : `${FORMAT.format(date)} UTC`;
}

export function DateTime({ value, fallback = '—' }: { value: string | null; fallback?: string }) {
  if (value === null) return <span className="muted">{fallback}</span>;
  return <time dateTime={value}>{formatDateTime(value)}</time>;
}
