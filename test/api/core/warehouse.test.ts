import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWarehouse } from '../../../api/core/warehouse.ts';
import { WAREHOUSE_LAYOUT } from '../../../api/location/domains/index.ts';
import { ingestBanFile } from '../../../ingest/fr/ban.ts';
import { BAN_HEADER, BAN_ROWS, banLine, silentContext } from '../../helpers/fixture-data.ts';

describe('warehouse', () => {
  it('picks up a partition published while it is open, once its manifest changed', async () => {
    const root = await mkdtemp(join(tmpdir(), 'lds-wh-'));
    const dataDir = join(root, 'data');
    const w = await openWarehouse(dataDir, WAREHOUSE_LAYOUT);
    try {
      expect(w.has('fr', 'addresses')).toBe(false);
      expect(await w.refreshIfChanged()).toBe(false);
      const file = join(root, 'adresses-75.csv');
      await writeFile(file, `${BAN_HEADER}\n${BAN_ROWS.map(banLine).join('\n')}\n`);
      await ingestBanFile(silentContext(dataDir), { path: file });
      const before = w.generation;
      expect(await w.refreshIfChanged()).toBe(true);
      expect(w.generation).toBe(before + 1);
      expect(w.has('fr', 'addresses')).toBe(true);
      expect(w.has('fr', 'streets')).toBe(true);
      const [{ n }] = await w.query<{ n: bigint }>('SELECT count(*) AS n FROM fr_addresses');
      expect(n).toBe(BigInt(BAN_ROWS.length));
      // Row-group statistics route a cell range to the file holding it (the fixture's Paris
      // addresses: adresses-75; its Gironde ones are in adresses-33).
      const [{ lo, hi }] = await w.query<{ lo: bigint; hi: bigint }>("SELECT min(cell) AS lo, max(cell) AS hi FROM fr_addresses WHERE locality_code LIKE '75%'");
      expect(w.filesWithCells('fr', 'addresses', lo, hi)).toHaveLength(1);
      expect(w.filesWithCells('fr', 'addresses', hi + 1n, hi + 10n)).toHaveLength(0);
      expect(await w.refreshIfChanged()).toBe(false);
    } finally { w.close(); }
  });
});
