export * from './envelope';
export * from './figures';
export * from './fixed-lists';
export * from './messages';
export * from './permissions';
export * from './quiz';
export * from './resources';
export * from './sales';
