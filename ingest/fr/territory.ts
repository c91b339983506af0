/**
 * Where a French point can be: lng/lat boxes (with a margin) of mainland France with Corsica and of
 * each overseas department. A position outside all of them is a broken row (swapped or scaled
 * coordinates), never a place.
 */
export const FRANCE_BOXES: Readonly<Record<string, readonly [number, number, number, number]>> = {
  mainland: [-5.5, 41.2, 10, 51.2],
  '971': [-61.9, 15.8, -61, 16.6], '972': [-61.3, 14.3, -60.7, 14.95], '973': [-54.7, 2, -51.5, 6], '974': [55.1, -21.45, 55.9, -20.8], '976': [44.9, -13.1, 45.35, -12.55],
  '977': [-63.2, 17.8, -62.7, 18.2], '978': [-63.2, 17.8, -62.7, 18.2],
};

export const inBox = (box: readonly [number, number, number, number], lng: number, lat: number) => lng >= box[0] && lat >= box[1] && lng <= box[2] && lat <= box[3];

/** Is the position in France (mainland, Corsica or an overseas department)? */
export const inFrance = (lng: number, lat: number) => Object.values(FRANCE_BOXES).some((b) => inBox(b, lng, lat));
