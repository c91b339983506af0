import { describe, expect, it } from 'vitest';
import { GeoJsonScanner } from '../../../../ingest/core/readers/geojson.ts';

/** Features of a text pushed in chunks of `size`: parsed as the reader does (the scanner's value, else its text parsed), and how many came parsed. */
function scan(text: string, size: number): { features: unknown[]; parsed: number } {
  const features: unknown[] = [];
  let parsed = 0;
  const scanner = new GeoJsonScanner((kind, t, _key, value) => {
    if (kind !== 'feature') return;
    if (value !== undefined) { parsed++; expect(JSON.parse(t)).toEqual(value); }
    features.push(value ?? JSON.parse(t));
  });
  for (let i = 0; i < text.length; i += size) scanner.push(text.slice(i, i + size));
  scanner.end();
  return { features, parsed };
}

const feature = (i: number) => ({ type: 'Feature', id: `f${i}`, geometry: { type: 'Polygon', coordinates: [[[i, 0], [i + 1, 0], [i, 1], [i, 0]]] }, properties: { name: i % 3 ? `n,{"}\\ ${i}` : null, nested: { a: [i, { b: '}' }] } } });
const features = Array.from({ length: 40 }, (_, i) => feature(i));

describe('GeoJsonScanner', () => {
  it('gives the same features whether a file has one feature per line (read by lines) or any other layout (scanned), in any chunks', () => {
    const layouts = {
      perLine: `{"type":"FeatureCollection","features":[\n${features.map((f) => JSON.stringify(f)).join(',\n')}]}\n`,
      perLineCrLf: `{"type":"FeatureCollection","features":[\r\n${features.map((f) => JSON.stringify(f)).join(' ,\r\n')}\r\n]}`,
      oneLine: JSON.stringify({ type: 'FeatureCollection', features }),
      pretty: JSON.stringify({ type: 'FeatureCollection', features }, null, 2),
      // Features on one line each, then ones spanning lines: the lines stop being tried, the rest is scanned.
      mixed: `{"type":"FeatureCollection","features":[\n${features.slice(0, 20).map((f) => JSON.stringify(f)).join(',\n')},\n${features.slice(20).map((f) => JSON.stringify(f, null, 1)).join(',\n')}]}`,
    };
    for (const [name, text] of Object.entries(layouts)) {
      for (const size of [7, 100, 4096, 1 << 20]) {
        const { features: got, parsed } = scan(text, size);
        expect(got, `${name} in chunks of ${size}`).toEqual(features);
        // perLine's last line ends with `]}`: scanned; perLineCrLf closes the array on a line of its own.
        if (size === 1 << 20 && name === 'perLine') expect(parsed).toBe(features.length - 1);
        if (size === 1 << 20 && name === 'perLineCrLf') expect(parsed).toBe(features.length);
        if (size === 1 << 20 && name === 'mixed') expect(parsed).toBe(20);
        if (name === 'oneLine' || name === 'pretty') expect(parsed).toBe(0);
      }
    }
  });

  it('fails on a broken feature line as the scan does', () => {
    const text = `{"type":"FeatureCollection","features":[\n${JSON.stringify(features[0])},\n{"type":"Feature","properties":{"a":1,}},\n${JSON.stringify(features[1])}]}`;
    expect(() => scan(text, 1 << 20)).toThrow(SyntaxError);
  });
});
