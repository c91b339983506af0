import { writeFileSync } from 'node:fs';
import { dataDictionary } from './dictionary.ts';

/** `npm run dictionary`: writes docs/data-dictionary.md from the row schemas and the catalogue. */
const path = new URL('../../docs/data-dictionary.md', import.meta.url);
writeFileSync(path, `${dataDictionary()}\n`);
console.log(`written ${path.pathname}`);
