ALTER TABLE "concepts" ADD COLUMN "decimals" smallint;--> statement-breakpoint
ALTER TABLE "concepts" ADD COLUMN "plausible_min" numeric(16, 2);--> statement-breakpoint
ALTER TABLE "concepts" ADD COLUMN "plausible_max" numeric(16, 2);--> statement-breakpoint
-- Each concept's kind: the days in the workshop are days (not units); decimals by kind (0 for a
-- count); the seeded concepts get their plausible range of a dealer's month.
UPDATE "concepts" SET "unit" = 'DIA' WHERE "code" = 'PERM_DIAS' AND "unit" = 'UND';--> statement-breakpoint
UPDATE "concepts" SET "decimals" = CASE "unit" WHEN 'UND' THEN 0 WHEN 'PEN' THEN 2 WHEN 'PCT' THEN 1 WHEN 'HRS' THEN 1 WHEN 'DIA' THEN 1 ELSE 2 END;--> statement-breakpoint
UPDATE "concepts" c SET "plausible_min" = v.min, "plausible_max" = v.max
FROM (VALUES
  ('VN_UND', 0, 2000),
  ('VN_FLOTA', 0, 1000),
  ('VU_UND', 0, 1000),
  ('VN_PEN', 10000, 500000000),
  ('TEST_DRIVE', 0, 5000),
  ('CONV_PCT', 0, 100),
  ('OT_UND', 0, 20000),
  ('HRS_VEND', 0, 50000),
  ('MO_PEN', 1000, 20000000),
  ('EFIC_PCT', 0, 200),
  ('PERM_DIAS', 0, 60),
  ('REP_MOST', 1000, 20000000),
  ('REP_TALLER', 1000, 20000000),
  ('ACC_PEN', 100, 10000000),
  ('CSI_VTA', 0, 100),
  ('CSI_PV', 0, 100),
  ('RECLAMOS', 0, 500)
) AS v(code, min, max) WHERE c."code" = v.code;
