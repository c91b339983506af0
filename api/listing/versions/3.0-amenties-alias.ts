import type { VersionChange } from './change.ts';

/** 3.1 -> 3.0 (spec 2.4): search results also serve amenities under the misspelt `amenties`. */
export const amentiesAlias: VersionChange = {
  description: 'Search results also serve the amenities under the misspelt alias amenties, with identical content.',
  responses: {
    'property.page': (body) => ({ ...body, data: body.data.map((p: any) => ({ ...p, amenties: p.amenities })) }),
  },
};
