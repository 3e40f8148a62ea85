CREATE TABLE "daily_sales" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"manufacturer_id" integer NOT NULL,
	"manufacturer_model_id" integer NOT NULL,
	"sale_date" date NOT NULL,
	"units" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispatch_objectives" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"manufacturer_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"units" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "dispatches" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"stored_office_id" integer,
	"manufacturer_id" integer NOT NULL,
	"manufacturer_model_id" integer,
	"model_name" varchar(150) NOT NULL,
	"vin" varchar(17) NOT NULL,
	"dispatch_date" date NOT NULL,
	"units" integer DEFAULT 1 NOT NULL,
	"invoice" varchar(40),
	"source" varchar(10) DEFAULT 'Manual' NOT NULL,
	"sima_key" varchar(60),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "dispatches_sima_key_unique" UNIQUE("sima_key")
);
--> statement-breakpoint
CREATE TABLE "transaction_stored_offices" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" varchar(20) NOT NULL,
	"name" varchar(120) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "transaction_stored_offices_code_unique" UNIQUE("code")
);
--> statement-breakpoint
ALTER TABLE "daily_sales" ADD CONSTRAINT "daily_sales_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_sales" ADD CONSTRAINT "daily_sales_manufacturer_id_manufacturers_id_fk" FOREIGN KEY ("manufacturer_id") REFERENCES "public"."manufacturers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "daily_sales" ADD CONSTRAINT "daily_sales_manufacturer_model_id_manufacturer_models_id_fk" FOREIGN KEY ("manufacturer_model_id") REFERENCES "public"."manufacturer_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch_objectives" ADD CONSTRAINT "dispatch_objectives_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatch_objectives" ADD CONSTRAINT "dispatch_objectives_manufacturer_id_manufacturers_id_fk" FOREIGN KEY ("manufacturer_id") REFERENCES "public"."manufacturers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_stored_office_id_transaction_stored_offices_id_fk" FOREIGN KEY ("stored_office_id") REFERENCES "public"."transaction_stored_offices"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_manufacturer_id_manufacturers_id_fk" FOREIGN KEY ("manufacturer_id") REFERENCES "public"."manufacturers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "dispatches" ADD CONSTRAINT "dispatches_manufacturer_model_id_manufacturer_models_id_fk" FOREIGN KEY ("manufacturer_model_id") REFERENCES "public"."manufacturer_models"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "daily_sales_uq" ON "daily_sales" USING btree ("dealer_id","manufacturer_model_id","sale_date");--> statement-breakpoint
CREATE INDEX "daily_sales_date_idx" ON "daily_sales" USING btree ("sale_date");--> statement-breakpoint
CREATE UNIQUE INDEX "dispatch_objectives_uq" ON "dispatch_objectives" USING btree ("dealer_id","manufacturer_id","year","month");--> statement-breakpoint
CREATE INDEX "dispatch_objectives_period_idx" ON "dispatch_objectives" USING btree ("year","month");--> statement-breakpoint
CREATE INDEX "dispatches_date_idx" ON "dispatches" USING btree ("dispatch_date");--> statement-breakpoint
CREATE INDEX "dispatches_dealer_date_idx" ON "dispatches" USING btree ("dealer_id","dispatch_date");--> statement-breakpoint
CREATE INDEX "dispatches_vin_idx" ON "dispatches" USING btree ("vin");--> statement-breakpoint
CREATE INDEX "dispatches_search_idx" ON "dispatches" USING gin ("vin" gin_trgm_ops,"model_name" gin_trgm_ops,"invoice" gin_trgm_ops);