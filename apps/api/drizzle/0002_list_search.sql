-- Lists at the limit: the quick search (ILIKE '%text%') of the big tables reads pg_trgm GIN
-- indexes; the default sorts (dealers by name, a dealer's contacts by name) end with the id so a
-- page's ids come from the index alone; dealers.district_id for the search by district name.
CREATE EXTENSION IF NOT EXISTS pg_trgm;--> statement-breakpoint
DROP INDEX "dealer_contacts_dealer_idx";--> statement-breakpoint
DROP INDEX "dealers_name_idx";--> statement-breakpoint
CREATE INDEX "dealer_contacts_search_idx" ON "dealer_contacts" USING gin ("name" gin_trgm_ops,"email" gin_trgm_ops,"position" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "dealers_district_idx" ON "dealers" USING btree ("district_id");--> statement-breakpoint
CREATE INDEX "dealers_search_idx" ON "dealers" USING gin ("code" gin_trgm_ops,"name" gin_trgm_ops,"ruc" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "sales_search_idx" ON "sales" USING gin ("vin" gin_trgm_ops,"buyer_name" gin_trgm_ops,"invoice" gin_trgm_ops,"document_number" gin_trgm_ops,"email" gin_trgm_ops,"model_name" gin_trgm_ops,"seller" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "dealer_contacts_dealer_idx" ON "dealer_contacts" USING btree ("dealer_id","name","id");--> statement-breakpoint
CREATE INDEX "dealers_name_idx" ON "dealers" USING btree ("name","id");