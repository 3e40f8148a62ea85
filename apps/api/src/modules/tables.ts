// Every table of the API: the core tables (db/schema.ts) and each module's <module>.tables.ts,
// for what walks them all (the plain resources' table lookup, the backup and fuzz checks). Code
// imports a table from where it is declared; drizzle.config.ts reads the same files to generate
// migrations. db/ stays below the modules: its drizzle instance needs no schema (no db.query).

export * from '../db/schema';
export * from './agreements/agreements.tables';
export * from './dispatches/dispatches.tables';
export * from './documents/documents.tables';
export * from './figures/figures.tables';
export * from './notifications/notifications.tables';
export * from './quiz/quiz.tables';
export * from './sales/sales.tables';
export * from './schedules/schedules.tables';
export * from './views/views.tables';
export * from './workshop/workshop.tables';
