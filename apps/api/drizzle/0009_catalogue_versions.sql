CREATE TABLE "catalogue_versions" (
	"table_name" varchar(63) PRIMARY KEY NOT NULL,
	"version" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION "catalogue_version_bump"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "catalogue_versions" SET "version" = "version" + 1 WHERE "table_name" = TG_TABLE_NAME;
  RETURN NULL;
END
$$;
--> statement-breakpoint
INSERT INTO "catalogue_versions" ("table_name") VALUES ('zones'), ('departments'), ('provinces'), ('districts');
--> statement-breakpoint
CREATE TRIGGER "zones_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "zones" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "departments_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "departments" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "provinces_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "provinces" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_version_bump"();
--> statement-breakpoint
CREATE TRIGGER "districts_catalogue_version" AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON "districts" FOR EACH STATEMENT EXECUTE FUNCTION "catalogue_version_bump"();
