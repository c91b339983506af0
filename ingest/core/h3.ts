export { POINT_RES, cellAndAncestors, cellToBigint, pointCell } from '../../schemas/tables/cells.ts';
