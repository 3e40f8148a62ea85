CREATE TABLE "capacities" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"dealer_branch_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"bays" numeric(16, 2),
	"technicians" numeric(16, 2),
	"hours_per_day" numeric(16, 2),
	"working_days" numeric(16, 2),
	"available_hours" numeric(16, 2),
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"concept_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"value" numeric(16, 2) NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "figure_periods" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"status" varchar(12) DEFAULT 'closed' NOT NULL,
	"enabled_at" timestamp with time zone,
	"enabled_by" integer,
	"confirmed_at" timestamp with time zone,
	"confirmed_by" integer,
	"reopened_at" timestamp with time zone,
	"reopened_by" integer,
	"reopen_reason" varchar(300),
	"reminded_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "figures" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"concept_id" integer NOT NULL,
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"value" numeric(16, 2) NOT NULL,
	"source" varchar(10) DEFAULT 'grid' NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "concepts" ADD COLUMN "higher_is_better" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "capacities" ADD CONSTRAINT "capacities_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capacities" ADD CONSTRAINT "capacities_dealer_branch_id_dealer_branches_id_fk" FOREIGN KEY ("dealer_branch_id") REFERENCES "public"."dealer_branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capacities" ADD CONSTRAINT "capacities_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fees" ADD CONSTRAINT "fees_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fees" ADD CONSTRAINT "fees_concept_id_concepts_id_fk" FOREIGN KEY ("concept_id") REFERENCES "public"."concepts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fees" ADD CONSTRAINT "fees_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figure_periods" ADD CONSTRAINT "figure_periods_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figure_periods" ADD CONSTRAINT "figure_periods_enabled_by_users_id_fk" FOREIGN KEY ("enabled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figure_periods" ADD CONSTRAINT "figure_periods_confirmed_by_users_id_fk" FOREIGN KEY ("confirmed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figure_periods" ADD CONSTRAINT "figure_periods_reopened_by_users_id_fk" FOREIGN KEY ("reopened_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figures" ADD CONSTRAINT "figures_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figures" ADD CONSTRAINT "figures_concept_id_concepts_id_fk" FOREIGN KEY ("concept_id") REFERENCES "public"."concepts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "figures" ADD CONSTRAINT "figures_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "capacities_branch_month_uq" ON "capacities" USING btree ("dealer_branch_id","year","month");--> statement-breakpoint
CREATE INDEX "capacities_dealer_month_idx" ON "capacities" USING btree ("dealer_id","year","month");--> statement-breakpoint
CREATE UNIQUE INDEX "fees_cell_uq" ON "fees" USING btree ("dealer_id","year","month","concept_id");--> statement-breakpoint
CREATE INDEX "fees_month_idx" ON "fees" USING btree ("year","month");--> statement-breakpoint
CREATE INDEX "fees_concept_idx" ON "fees" USING btree ("concept_id");--> statement-breakpoint
CREATE UNIQUE INDEX "figure_periods_dealer_month_uq" ON "figure_periods" USING btree ("dealer_id","year","month");--> statement-breakpoint
CREATE INDEX "figure_periods_month_idx" ON "figure_periods" USING btree ("year","month","status");--> statement-breakpoint
CREATE UNIQUE INDEX "figures_cell_uq" ON "figures" USING btree ("dealer_id","year","month","concept_id");--> statement-breakpoint
CREATE INDEX "figures_month_idx" ON "figures" USING btree ("year","month");--> statement-breakpoint
CREATE INDEX "figures_concept_idx" ON "figures" USING btree ("concept_id");