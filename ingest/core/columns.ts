/**
 * Checks a producer file's header before any row is read (issue 14: a file of an unexpected layout
 * fails naming the missing columns and publishes nothing). The message names what the file was
 * expected to be, what is missing and what it has, so the operator sees a wrong file at once.
 */
export function requireColumns(header: readonly string[], names: readonly string[], fileLabel: string): void {
  const missing = names.filter((c) => !header.includes(c));
  if (missing.length > 0) throw new Error(`not ${fileLabel}: missing columns ${missing.join(', ')}; found ${foundColumns(header)}`);
}

/** The first columns of a header, for an error message. */
export function foundColumns(header: readonly string[], max = 8): string {
  return header.length === 0 ? 'no header' : `${header.slice(0, max).join(', ')}${header.length > max ? ', ...' : ''}`;
}
