import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { localityKey, normalizeText, normalizeTextByRules, streetKey } from '../../../schemas/tables/address-key.ts';

const REAL_BAN = join(import.meta.dirname, '../../../../shared/realdata/fr/ban');

/** Deterministic pseudo-random generator, so a failure names a reproducible string. */
function rng(seed: number): () => number {
  let s = seed;
  return () => ((s = (s * 16807) % 2147483647) / 2147483647);
}

describe('normalizeText', () => {
  it('folds case, accents, ligatures and punctuation as documented', () => {
    expect(normalizeText('Rue d’Alésia - 14e')).toBe('rue d alesia 14e');
    expect(normalizeText('  Œuvre  ÆGIR  Straße ')).toBe('oeuvre aegir strasse');
    expect(normalizeText('Saint-Étienne-du-Rouvray')).toBe('saint etienne du rouvray');
    expect(normalizeText('...')).toBe('');
    expect(normalizeText('')).toBe('');
  });

  it('gives what the general rules give for every Latin character, alone and between others', () => {
    for (let code = 0; code < 0x250; code++) {
      const c = String.fromCharCode(code);
      for (const s of [c, `a${c}`, `${c}b`, `Rue ${c}${c} de l'Église${c}`, `${c} ${c}`]) expect(normalizeText(s), `U+${code.toString(16)} in ${JSON.stringify(s)}`).toBe(normalizeTextByRules(s));
    }
  });

  it('gives what the general rules give on random Latin strings and on other scripts', () => {
    const rand = rng(42);
    const alphabet = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 -\'’.,;/()àâäéèêëîïôöùûüÿçœæßÀÂÉÈÊËÎÏÔÖÙÛÜŸÇŒÆñÑãõøØåÅłŁ\t\u00a0'];
    for (let n = 0; n < 5000; n++) {
      const s = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('');
      expect(normalizeText(s), JSON.stringify(s)).toBe(normalizeTextByRules(s));
    }
    // Beyond Latin (Greek final sigma, CJK, combining marks typed separately, Turkish dotted I):
    for (const s of ['ΟΔΟΣ ΑΘΗΝΑΣ', '東京都 千代田区', 'Rue de l’E\u0301glise', 'İstiklal Caddesi', 'Ǆemal Bijedića']) {
      expect(normalizeText(s)).toBe(normalizeTextByRules(s));
    }
    expect(normalizeText('Rue de l’E\u0301glise')).toBe('rue de l eglise');
  });

  it.skipIf(!existsSync(REAL_BAN))('agrees with the general rules on every street and commune name of the real BAN extracts', () => {
    let names = 0;
    for (const file of readdirSync(REAL_BAN).filter((f) => f.endsWith('.csv'))) {
      const [header, ...lines] = readFileSync(join(REAL_BAN, file), 'utf8').trim().split('\n');
      const cols = header!.split(';');
      for (const line of lines) {
        const f = line.split(';');
        for (const c of ['nom_voie', 'nom_commune', 'nom_afnor', 'libelle_acheminement']) {
          const v = f[cols.indexOf(c)] ?? '';
          expect(normalizeText(v)).toBe(normalizeTextByRules(v));
          names++;
        }
      }
    }
    expect(names).toBeGreaterThan(1000);
  });

  it('keys streets and localities from the normalised text', () => {
    expect(streetKey('R. de la Roquette')).toBe('rue roquette');
    expect(streetKey('Bd du Fbg St-Antoine')).toBe('boulevard faubourg saint antoine');
    expect(localityKey('Paris 13e Arrondissement')).toBe('paris 13e arrondissement');
  });
});
