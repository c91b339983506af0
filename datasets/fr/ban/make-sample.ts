/**
 * Writes the BAN sample files adresses-75.csv, adresses-33.csv, adresses-974.csv in the layout of
 * the BAN departmental CSV exports. Run: npx tsx datasets/fr/ban/make-sample.ts
 */
import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { girondeAddresses, parisAddresses, reunionAddresses, type SampleAddress } from '../tools/addresses.ts';
import { nomAfnor } from '../tools/afnor.ts';

export const BAN_HEADER =
  'id;id_fantoir;numero;rep;nom_voie;code_postal;code_insee;nom_commune;code_insee_ancienne_commune;nom_ancienne_commune;x;y;lon;lat;type_position;alias;nom_ld;libelle_acheminement;nom_afnor;source_position;source_nom_voie;certification_commune;cad_parcelles';

function line(a: SampleAddress): string {
  const idFantoir = `${a.codeInsee}_${a.fantoir}`;
  const id = `${idFantoir}_${String(a.numero).padStart(5, '0')}${a.rep ? `_${a.rep}` : ''}`;
  const cells = [
    id,
    idFantoir,
    String(a.numero),
    a.rep,
    a.nomVoie,
    a.codePostal,
    a.codeInsee,
    a.nomCommune,
    '',
    '',
    String(a.x),
    String(a.y),
    String(a.lon),
    String(a.lat),
    a.typePosition,
    '',
    a.nomLd,
    a.libelleAcheminement,
    nomAfnor(a.nomVoie),
    a.sourcePosition,
    a.sourceNomVoie,
    String(a.certification),
    a.cadParcelles,
  ];
  for (const c of cells) if (/[;\n"]/.test(c)) throw new Error(`value needs quoting: ${c}`);
  return cells.join(';');
}

function sortKey(a: SampleAddress): string {
  return `${a.codeInsee}|${a.fantoir}|${String(a.numero).padStart(5, '0')}|${a.rep}`;
}

export function writeBan(file: string, rows: SampleAddress[]): number {
  const sorted = rows.slice().sort((p, q) => (sortKey(p) < sortKey(q) ? -1 : sortKey(p) > sortKey(q) ? 1 : 0));
  const ids = new Set<string>();
  const lines = sorted.map(line);
  for (const l of lines) {
    const id = l.split(';')[0];
    if (ids.has(id)) throw new Error(`duplicate id ${id}`);
    ids.add(id);
  }
  writeFileSync(file, [BAN_HEADER, ...lines].join('\n') + '\n', 'utf8');
  return lines.length;
}

const here = dirname(fileURLToPath(import.meta.url));
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log('adresses-75.csv', writeBan(join(here, 'adresses-75.csv'), parisAddresses()));
  console.log('adresses-33.csv', writeBan(join(here, 'adresses-33.csv'), girondeAddresses()));
  console.log('adresses-974.csv', writeBan(join(here, 'adresses-974.csv'), reunionAddresses()));
}
