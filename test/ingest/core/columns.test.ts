import { describe, expect, it } from 'vitest';
import { requireColumns } from '../../../ingest/core/columns.ts';

describe('requireColumns', () => {
  it('passes a header holding every name, whatever its other columns and order', () => {
    expect(() => requireColumns(['b', 'x', 'a'], ['a', 'b'], 'a test file')).not.toThrow();
  });

  it('names the file, every missing column in the expected order and the first columns found', () => {
    const header = ['c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9', 'a'];
    expect(() => requireColumns(header, ['a', 'b', 'z'], "INSEE's test file")).toThrow(
      "not INSEE's test file: missing columns b, z; found c1, c2, c3, c4, c5, c6, c7, c8, ...");
    expect(() => requireColumns([], ['a'], 'a test file')).toThrow('not a test file: missing columns a; found no header');
  });
});
