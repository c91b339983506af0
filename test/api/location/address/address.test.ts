import { describe, expect, it } from 'vitest';
import {
  addressKey,
  addressKeyPrefix,
  banAddressKey,
  banRowToParts,
  expandAbbreviations,
  normalizeText,
  parseAddressQuery,
  parseArrondissement,
  scoreCandidate,
  streetKey,
  type AddressParts,
  type ParsedAddress,
} from '../../../../api/location/address/index.ts';

describe('normalizeText', () => {
  it.each([
    ['Rue d’Alésia', 'rue d alesia'],
    ["Rue d'Italie", 'rue d italie'],
    ['Rue Vieille-du-Temple', 'rue vieille du temple'],
    ['  BOULEVARD   Beaumarchais,  ', 'boulevard beaumarchais'],
    ['Place de l’Œuvre', 'place de l oeuvre'],
    ['Rue Gérard', 'rue gerard'],
    ['Quai de la Tournelle.', 'quai de la tournelle'],
    ['Île-de-Ré', 'ile de re'],
    ['Chaussée d’Ixelles n°12', 'chaussee d ixelles n 12'],
    ['', ''],
  ])('%s → %s', (input, expected) => {
    expect(normalizeText(input)).toBe(expected);
  });
});

describe('expandAbbreviations', () => {
  it.each([
    ['bd beaumarchais', 'boulevard beaumarchais'],
    ['boul beaumarchais', 'boulevard beaumarchais'],
    ['bld voltaire', 'boulevard voltaire'],
    ['av d italie', 'avenue d italie'],
    ['ave foch', 'avenue foch'],
    ['r de bretagne', 'rue de bretagne'],
    ['pl d italie', 'place d italie'],
    ['r du fbg st antoine', 'rue du faubourg saint antoine'],
    ['r du fg st honore', 'rue du faubourg saint honore'],
    ['rue ste croix', 'rue sainte croix'],
    ['imp des lilas', 'impasse des lilas'],
    ['all des pins', 'allee des pins'],
    ['che des vignes', 'chemin des vignes'],
    ['chem des vignes', 'chemin des vignes'],
    ['rte de lyon', 'route de lyon'],
    ['sq d anvers', 'square d anvers'],
    ['crs mirabeau', 'cours mirabeau'],
    ['qu de la tournelle', 'quai de la tournelle'],
    ['qai voltaire', 'quai voltaire'],
    ['av de la pte d italie', 'avenue de la porte d italie'],
    ['pass brady', 'passage brady'],
    ['res les tilleuls', 'residence les tilleuls'],
    ['lot les chenes', 'lotissement les chenes'],
    ['av du gal leclerc', 'avenue du general leclerc'],
  ])('%s → %s', (input, expected) => {
    expect(expandAbbreviations(input)).toBe(expected);
  });

  it('does not expand ambiguous tokens outside the street-type position', () => {
    expect(expandAbbreviations('rue du lot')).toBe('rue du lot');
    expect(expandAbbreviations('rue de la pass')).toBe('rue de la pass');
    expect(expandAbbreviations('place r')).toBe('place r');
  });

  it('is idempotent on BAN spelling', () => {
    const ban = 'rue du faubourg saint antoine';
    expect(expandAbbreviations(ban)).toBe(ban);
  });
});

function p(q: string, opts?: Parameters<typeof parseAddressQuery>[1]): ParsedAddress {
  return parseAddressQuery(q, opts);
}

describe('parseAddressQuery (France)', () => {
  it('12 bis rue de Bretagne 75003 Paris', () => {
    expect(p('12 bis rue de Bretagne 75003 Paris')).toEqual({
      number: 12,
      rep: 'bis',
      street: 'rue de bretagne',
      postcode: '75003',
      city: 'paris',
      arrondissement: 3,
    });
  });

  it('a street before the postcode makes the words after it the city, even a city named like a street (Pont-les-Bains)', () => {
    expect(p('6 Rue de la Mairie 73000 Pont-les-Bains')).toMatchObject({ number: 6, street: 'rue de la mairie', postcode: '73000', city: 'pont les bains' });
    expect(p('rue de Bretagne 27500 Pont-Audemer')).toMatchObject({ street: 'rue de bretagne', postcode: '27500', city: 'pont audemer' });
    // Postcode first, nothing before it: what follows is still the street.
    expect(p('75003, 12 rue de Bretagne')).toMatchObject({ number: 12, street: 'rue de bretagne', postcode: '75003' });
  });

  it('12B r. de Bretagne Paris', () => {
    expect(p('12B r. de Bretagne Paris')).toEqual({
      number: 12,
      rep: 'bis',
      street: 'rue de bretagne',
      postcode: null,
      city: 'paris',
      arrondissement: null,
    });
  });

  it.each([
    ['12bis rue de Bretagne', 12, 'bis'],
    ['12 B rue de Bretagne', 12, 'bis'],
    ['12 b rue de Bretagne', 12, 'bis'],
    ['12t rue de Bretagne', 12, 'ter'],
    ['12 ter rue de Bretagne', 12, 'ter'],
    ['12 q rue de Bretagne', 12, 'quater'],
    ['12 quater rue de Bretagne', 12, 'quater'],
    ['12A rue de Bretagne', 12, 'a'],
    ['12 rue de Bretagne', 12, null],
    ['n° 12 rue de Bretagne', 12, null],
    ['12-14 rue de Bretagne', 12, null],
  ])('%s → number %d rep %s', (q, number, rep) => {
    const r = p(q);
    expect(r.number).toBe(number);
    expect(r.rep).toBe(rep);
    expect(r.street).toBe('rue de bretagne');
  });

  it('3 r de la Paix: "r" is the street type, not a rep', () => {
    expect(p('3 r de la Paix')).toMatchObject({ number: 3, rep: null, street: 'rue de la paix' });
  });

  it('14 bd Beaumarchais, 75004', () => {
    expect(p('14 bd Beaumarchais, 75004')).toEqual({
      number: 14,
      rep: null,
      street: 'boulevard beaumarchais',
      postcode: '75004',
      city: null,
      arrondissement: 4,
    });
  });

  it("10 av. d'Italie 75013", () => {
    expect(p("10 av. d'Italie 75013")).toMatchObject({
      number: 10,
      street: 'avenue d italie',
      postcode: '75013',
      city: null,
      arrondissement: 13,
    });
  });

  it('5 Rue Vieille-du-Temple Paris 4e', () => {
    expect(p('5 Rue Vieille-du-Temple Paris 4e')).toEqual({
      number: 5,
      rep: null,
      street: 'rue vieille du temple',
      postcode: null,
      city: 'paris',
      arrondissement: 4,
    });
  });

  it.each([
    ['5 rue Vieille du Temple, Paris 4', 4],
    ['5 rue Vieille du Temple Paris 13e', 13],
    ['5 rue Vieille du Temple Paris 13ème', 13],
    ['5 rue Vieille du Temple Paris XIIIe', 13],
    ['5 rue Vieille du Temple paris 1er', 1],
    ['5 rue Vieille du Temple Lyon 3e', 3],
  ])('%s → arrondissement %d', (q, arr) => {
    const r = p(q);
    expect(r.arrondissement).toBe(arr);
    expect(r.street).toBe('rue vieille du temple');
    expect(r.city === 'paris' || r.city === 'lyon').toBe(true);
  });

  it("3 pl. d'Italie", () => {
    expect(p("3 pl. d'Italie")).toEqual({
      number: 3,
      rep: null,
      street: 'place d italie',
      postcode: null,
      city: null,
      arrondissement: null,
    });
  });

  it('1 Rue du Faubourg Saint-Antoine 75011', () => {
    expect(p('1 Rue du Faubourg Saint-Antoine 75011')).toMatchObject({
      number: 1,
      street: 'rue du faubourg saint antoine',
      postcode: '75011',
      arrondissement: 11,
    });
    expect(p('1 r du fbg St Antoine 75011').street).toBe('rue du faubourg saint antoine');
  });

  it('RUE GERARD 32 PARIS (number after the street)', () => {
    expect(p('RUE GERARD 32 PARIS')).toEqual({
      number: 32,
      rep: null,
      street: 'rue gerard',
      postcode: null,
      city: 'paris',
      arrondissement: null,
    });
  });

  it('no number', () => {
    expect(p('Rue Gérard, 75013 Paris')).toMatchObject({
      number: null,
      rep: null,
      street: 'rue gerard',
      postcode: '75013',
      city: 'paris',
    });
    expect(p('boulevard Beaumarchais')).toMatchObject({ number: null, street: 'boulevard beaumarchais', city: null });
  });

  it('case and accents do not matter', () => {
    const a = p('32 rue gérard 75013 paris');
    expect(p('32 RUE GÉRARD 75013 PARIS')).toEqual(a);
    expect(p('32 Rue Gerard 75013 Paris')).toEqual(a);
  });

  it('keeps a city name that belongs to the street', () => {
    expect(p('12 rue de Paris')).toMatchObject({ number: 12, street: 'rue de paris', city: null });
    expect(p('12 avenue de Paris, Versailles')).toMatchObject({ street: 'avenue de paris', city: 'versailles' });
  });

  it('does not read dates in street names as house numbers', () => {
    expect(p('rue du 8 mai 1945')).toMatchObject({ number: null, street: 'rue du 8 mai 1945' });
    expect(p('3 rue du 4 septembre 75002')).toMatchObject({ number: 3, street: 'rue du 4 septembre' });
  });

  it('city after a comma, with saint abbreviated, and CEDEX', () => {
    expect(p('4 place Jean Jaurès, St-Étienne')).toMatchObject({
      number: 4,
      street: 'place jean jaures',
      city: 'saint etienne',
    });
    expect(p('2 rue de la Paix 75002 Paris CEDEX 02')).toMatchObject({ city: 'paris', postcode: '75002' });
  });

  it('a caller-supplied city recogniser', () => {
    const isCity = (s: string) => s === 'plouguerneau';
    expect(p('12 rue du Port Plouguerneau', { isCity })).toMatchObject({ street: 'rue du port', city: 'plouguerneau' });
  });
});

describe('parseAddressQuery (Belgium, Quebec postcodes)', () => {
  it('Belgian order: street, number, 4-digit postcode, city', () => {
    expect(p('Rue de la Loi 16, 1000 Bruxelles', { country: 'be' })).toEqual({
      number: 16,
      rep: null,
      street: 'rue de la loi',
      postcode: '1000',
      city: 'bruxelles',
      arrondissement: null,
    });
    expect(p('Avenue Louise 54 1050 Ixelles', { country: 'be' })).toMatchObject({
      number: 54,
      postcode: '1050',
      city: 'ixelles',
    });
  });

  it('a leading 4-digit number is not a Belgian postcode', () => {
    expect(p('1000 Bruxelles', { country: 'be' })).toMatchObject({ postcode: '1000', city: 'bruxelles' });
    expect(p('1200 rue Principale', { country: 'be' })).toMatchObject({ number: 1200, postcode: null });
  });

  it('Canadian postcodes with or without the space', () => {
    expect(p('1234 rue Saint-Denis, Montréal H2X 3J6', { country: 'ca' })).toMatchObject({
      number: 1234,
      street: 'rue saint denis',
      postcode: 'H2X 3J6',
      city: 'montreal',
    });
    expect(p('1234 rue Saint-Denis Montreal QC h2x3j6', { country: 'ca' }).postcode).toBe('H2X 3J6');
  });
});

describe('parseArrondissement', () => {
  it.each([
    ['13', 13],
    ['13e', 13],
    ['13eme', 13],
    ['1er', 1],
    ['xiiie', 13],
    ['iv', 4],
    ['xx', 20],
    ['abc', null],
  ])('%s → %s', (t, n) => expect(parseArrondissement(t)).toBe(n));
});

describe('addressKey / addressKeyPrefix', () => {
  const banRow = {
    numero: '12',
    rep: 'bis',
    nom_voie: 'Rue de Bretagne',
    code_postal: '75003',
    nom_commune: 'Paris 3e Arrondissement',
  };
  const full = banAddressKey(banRow);

  it('builds the full key at ingest', () => {
    expect(full).toBe('rue bretagne|75003|12|bis|');
    expect(banAddressKey({ ...banRow, rep: null })).toBe('rue bretagne|75003|12||');
    expect(banAddressKey({ ...banRow, rep: 'b' })).toBe(full);
  });

  it('query keys are equal or a prefix of the ingest key', () => {
    const q1 = p('12 bis rue de Bretagne 75003 Paris');
    expect(addressKeyPrefix(q1)).toBe(full);
    expect(addressKey(q1)).toBe(full);
    const q2 = p('12B r. de Bretagne, 75003');
    expect(addressKeyPrefix(q2)).toBe(full);
    const q3 = p('12 r de Bretagne 75003');
    expect(full.startsWith(addressKeyPrefix(q3))).toBe(true);
    expect(addressKeyPrefix(q3)).toBe('rue bretagne|75003|12|');
    const q4 = p('12B r. de Bretagne Paris'); // no postcode → street-wide prefix
    expect(addressKeyPrefix(q4)).toBe('rue bretagne|');
    expect(full.startsWith(addressKeyPrefix(q4))).toBe(true);
  });

  it('streetKey agrees across spellings', () => {
    const k = streetKey('Rue du Faubourg Saint-Antoine');
    expect(streetKey('r. du fbg St-Antoine')).toBe(k);
    expect(streetKey('RUE DU FAUBOURG ST ANTOINE')).toBe(k);
    expect(streetKey("Avenue d'Italie")).toBe(streetKey('av. d’Italie'));
  });

  it('banRowToParts tolerates empty columns', () => {
    expect(banRowToParts({ numero: '', rep: '', nom_voie: 'Rue X', code_postal: '', nom_commune: '' })).toEqual({
      number: null,
      rep: null,
      street: 'Rue X',
      postcode: null,
      city: null,
    });
  });
});

describe('scoreCandidate', () => {
  const cand = (street: string, number: number | null, rep: string | null, postcode: string, city: string): AddressParts => ({
    street,
    number,
    rep,
    postcode,
    city,
  });
  const c12bis = cand('Rue de Bretagne', 12, 'bis', '75003', 'paris');
  const c12 = cand('Rue de Bretagne', 12, null, '75003', 'paris');
  const c14 = cand('Rue de Bretagne', 14, null, '75003', 'paris');
  const otherCity = cand('Rue de Bretagne', 12, 'bis', '35000', 'rennes');
  const otherStreet = cand('Rue de Bourgogne', 12, 'bis', '75007', 'paris');

  it('scores an exact match 1 and stays within 0..1', () => {
    const q = p('12 bis rue de Bretagne 75003 Paris');
    expect(scoreCandidate(q, c12bis)).toBe(1);
    for (const c of [c12, c14, otherCity, otherStreet]) {
      const s = scoreCandidate(q, c);
      expect(s).toBeGreaterThanOrEqual(0);
      expect(s).toBeLessThan(1);
    }
  });

  it('ranks rep, number, city and street agreement', () => {
    const q = p('12B r. de Bretagne Paris');
    const ranked = [c14, otherStreet, otherCity, c12, c12bis].sort((a, b) => scoreCandidate(q, b) - scoreCandidate(q, a));
    expect(ranked[0]).toBe(c12bis);
    expect(ranked[1]).toBe(c12);
    expect(scoreCandidate(q, otherCity)).toBeLessThan(scoreCandidate(q, c12));
    expect(scoreCandidate(q, otherStreet)).toBeLessThan(scoreCandidate(q, c14));
  });

  it('uses the arrondissement hint against the candidate postcode', () => {
    const q = p('5 Rue Vieille-du-Temple Paris 4e');
    const in4 = cand('Rue Vieille du Temple', 5, null, '75004', 'paris');
    const in3 = cand('Rue Vieille du Temple', 5, null, '75003', 'paris');
    expect(scoreCandidate(q, in4)).toBeGreaterThan(scoreCandidate(q, in3));
    expect(scoreCandidate(q, in4)).toBe(1);
  });

  it('handles missing accents and upper case', () => {
    const gerard = cand('Rue Gérard', 32, null, '75013', 'paris');
    expect(scoreCandidate(p('RUE GERARD 32 PARIS'), gerard)).toBeGreaterThan(0.9);
    expect(scoreCandidate(p('Rue Gerard'), cand('Rue Gérard', null, null, '75013', 'paris'))).toBeGreaterThan(0.8);
  });

  it('tolerates a typo in the street', () => {
    const q = p('14 bd Beaumarchai, 75004');
    const good = cand('Boulevard Beaumarchais', 14, null, '75004', 'paris');
    const bad = cand('Boulevard Bourdon', 14, null, '75004', 'paris');
    expect(scoreCandidate(q, good)).toBeGreaterThan(0.8);
    expect(scoreCandidate(q, good)).toBeGreaterThan(scoreCandidate(q, bad) + 0.2);
  });
});
