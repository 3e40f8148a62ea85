ALTER TABLE "concepts" ADD COLUMN "aggregation" varchar(4) DEFAULT 'sum' NOT NULL;--> statement-breakpoint
-- Rates and averages already in the catalogue: '%' concepts and the seeded days in the workshop.
UPDATE "concepts" SET "aggregation" = 'avg' WHERE "unit" = 'PCT' OR "code" = 'PERM_DIAS';
