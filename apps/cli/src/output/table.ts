// Human tables: columns padded to their widest cell, one header line. What the API returns is shown as text with
// control characters replaced, so a server name or description can never drive the terminal.

const CONTROL = /[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/g;

export function displayText(value: unknown, maxLength = 80): string {
  const text = value === null || value === undefined ? '-' : String(value);
  const clean = text.replace(CONTROL, '?');
  return clean.length > maxLength ? `${clean.slice(0, maxLength - 1)}…` : clean;
}

export function renderTable(headers: readonly string[], rows: readonly (readonly unknown[])[]): string[] {
  const cells = rows.map((row) => headers.map((_header, index) => displayText(row[index])));
  const widths = headers.map((header, index) =>
    Math.max(header.length, ...cells.map((row) => (row[index] ?? '').length)),
  );
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(headers), ...cells.map(line)];
}
