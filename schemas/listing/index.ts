export * from './common.ts';
export * from './property.ts';
export * from './agency.ts';
export * from './user.ts';
export * from './gateway.ts';
export * from './v3_0.ts';
