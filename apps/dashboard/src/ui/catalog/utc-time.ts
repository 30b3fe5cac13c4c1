/** A moment as the catalog pages show it: day and minute, in UTC, whatever the reader's time zone. */
export function formatUtcTime(iso: string): string {
  return (
    new Date(iso).toLocaleString('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }) +
    ' UTC'
  );
}
