import type { VersionChange } from './change.ts';

/** 3.1 -> 3.0 (spec 2.3): the property detail's address has no unit_number. */
export const noUnitNumber: VersionChange = {
  description: 'address.unit_number is absent from the property detail.',
  responses: {
    'property.one': (body) => {
      const { unit_number: _, ...address } = body.data.address;
      return { ...body, data: { ...body.data, address } };
    },
  },
};
