-- Issue 28: the period indexes of dispatches and daily sales carry what the summaries add up
-- (dealer, brand, units), so a period of the whole network is an index-only scan instead of a
-- visit to each wide row (rows of one date are scattered over the table).
DROP INDEX "daily_sales_date_idx";--> statement-breakpoint
DROP INDEX "dispatches_date_idx";--> statement-breakpoint
CREATE INDEX "daily_sales_date_units_idx" ON "daily_sales" USING btree ("sale_date","dealer_id","manufacturer_id","units");--> statement-breakpoint
CREATE INDEX "dispatches_date_units_idx" ON "dispatches" USING btree ("dispatch_date","dealer_id","manufacturer_id","units");