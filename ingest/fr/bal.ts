import { balSource } from '../../datasets/fr/bal/source.ts';
import type { AddressFileFormat } from './ban.ts';

/**
 * A Base Adresse Locale (BAL 1.3, 1.4) read as the BAN's departmental file: the same table,
 * partition (`adresses-<department>` of `commune_insee`) and replacement rule (the file replaces
 * the addresses of the communes it holds, and of their communes déléguées). `cle_interop` is the
 * BAN's `id` of the same address (`<insee>_<street>_<numero>[_<suffixe>]`), so the address is
 * served once whichever of the two was ingested last. BAL has no postcode: `postcode` is null.
 */
export const BAL_FORMAT: AddressFileFormat = {
  job: 'fr.bal',
  source: balSource,
  title: 'a Base Adresse Locale (BAL 1.3 or 1.4)',
  required: ['cle_interop', 'commune_insee', 'commune_nom', 'voie_nom', 'numero', 'suffixe', 'position', 'x', 'y', 'long', 'lat'],
  columns: {
    id: 'cle_interop', numero: 'numero', rep: 'suffixe', nom_voie: 'voie_nom', code_postal: null, code_insee: 'commune_insee',
    nom_commune: 'commune_nom', code_insee_ancienne_commune: 'commune_deleguee_insee', x: 'x', y: 'y', lon: 'long', lat: 'lat',
    type_position: 'position', cad_parcelles: 'cad_parcelles',
  },
  // 99999 numbers a named place without address (a toponym of the BAL), not an address.
  skip: `numero = '99999'`,
};
