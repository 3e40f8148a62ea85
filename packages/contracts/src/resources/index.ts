export * from './brands';
export * from './catalogues';
export * from './fields';
export * from './geography';
export * from './organisation';
export * from './preferences';
export * from './security';
