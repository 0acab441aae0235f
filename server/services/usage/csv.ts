/** A cell as RFC 4180 writes it; text a spreadsheet would run as a formula (`=`, `+`, `-`, `@`) is kept text with a leading `'`. */
const cell = (value: string | number): string => {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
};

/** One CSV line of `cells` (without its line end). */
export const csvLine = (cells: (string | number)[]): string => cells.map(cell).join(',');
