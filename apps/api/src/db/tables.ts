// Every table of the API: the core tables (db/schema.ts) and each module's <module>.tables.ts.
// client.ts builds the typed drizzle instance from this list; code imports a table from where it
// is declared. drizzle.config.ts reads the same files to generate migrations.
export * from '../modules/agreements/agreements.tables';
export * from '../modules/dispatches/dispatches.tables';
export * from '../modules/documents/documents.tables';
export * from '../modules/figures/figures.tables';
export * from '../modules/jobs/jobs.tables';
export * from '../modules/notifications/notifications.tables';
export * from '../modules/quiz/quiz.tables';
export * from '../modules/sales/sales.tables';
export * from '../modules/schedules/schedules.tables';
export * from '../modules/views/views.tables';
export * from '../modules/workshop/workshop.tables';
export * from './schema';
