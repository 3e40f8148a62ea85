CREATE TABLE "agreement_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"agreement_id" integer NOT NULL,
	"kind" varchar(10) NOT NULL,
	"comment" text,
	"from_status" varchar(12),
	"to_status" varchar(12),
	"recipients" jsonb,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "agreements" (
	"id" serial PRIMARY KEY NOT NULL,
	"zone_id" integer NOT NULL,
	"dealer_id" integer NOT NULL,
	"title" varchar(200) NOT NULL,
	"detail" text,
	"level" varchar(10) DEFAULT 'medium' NOT NULL,
	"status" varchar(12) DEFAULT 'pending' NOT NULL,
	"responsible" varchar(150),
	"dealer_contact_id" integer,
	"due_date" date NOT NULL,
	"notified_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workshop_infos" (
	"id" serial PRIMARY KEY NOT NULL,
	"dealer_id" integer NOT NULL,
	"dealer_branch_id" integer,
	"year" smallint NOT NULL,
	"month" smallint NOT NULL,
	"work_orders_opened" integer NOT NULL,
	"work_orders_closed" integer NOT NULL,
	"hours_sold" numeric(14, 2) NOT NULL,
	"hours_worked" numeric(14, 2) NOT NULL,
	"labour_revenue" numeric(14, 2) NOT NULL,
	"parts_revenue" numeric(14, 2) NOT NULL,
	"accessories_revenue" numeric(14, 2),
	"warranty_orders" integer,
	"technicians" integer,
	"notes" varchar(500),
	"source" varchar(10) DEFAULT 'form' NOT NULL,
	"updated_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "workshop_infos_month_uq" UNIQUE NULLS NOT DISTINCT("dealer_id","dealer_branch_id","year","month")
);
--> statement-breakpoint
ALTER TABLE "agreement_events" ADD CONSTRAINT "agreement_events_agreement_id_agreements_id_fk" FOREIGN KEY ("agreement_id") REFERENCES "public"."agreements"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreement_events" ADD CONSTRAINT "agreement_events_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_zone_id_zones_id_fk" FOREIGN KEY ("zone_id") REFERENCES "public"."zones"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_dealer_contact_id_dealer_contacts_id_fk" FOREIGN KEY ("dealer_contact_id") REFERENCES "public"."dealer_contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "agreements" ADD CONSTRAINT "agreements_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_infos" ADD CONSTRAINT "workshop_infos_dealer_id_dealers_id_fk" FOREIGN KEY ("dealer_id") REFERENCES "public"."dealers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_infos" ADD CONSTRAINT "workshop_infos_dealer_branch_id_dealer_branches_id_fk" FOREIGN KEY ("dealer_branch_id") REFERENCES "public"."dealer_branches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "workshop_infos" ADD CONSTRAINT "workshop_infos_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "agreement_events_agreement_idx" ON "agreement_events" USING btree ("agreement_id","id");--> statement-breakpoint
CREATE INDEX "agreements_dealer_idx" ON "agreements" USING btree ("dealer_id","due_date");--> statement-breakpoint
CREATE INDEX "agreements_status_due_idx" ON "agreements" USING btree ("status","due_date");--> statement-breakpoint
CREATE INDEX "agreements_search_idx" ON "agreements" USING gin ("title" gin_trgm_ops,"responsible" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "workshop_infos_period_idx" ON "workshop_infos" USING btree ("year","month");