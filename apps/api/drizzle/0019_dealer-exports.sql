-- Issue 27: a dealer user exports its own Cuotas, Resumen Comparativo and Despachos. The seed
-- grants a role only the permissions new to a database, so the Concesionario role of an existing
-- database receives these three here, once (an administrator may revoke them afterwards).
INSERT INTO "role_permissions" ("role_id", "permission_id")
SELECT r."id", p."id" FROM "roles" r, "permissions" p
WHERE r."name" = 'Concesionario' AND p."name" IN ('Fees.export', 'Figures.Resumen.export', 'Transactions.export')
ON CONFLICT DO NOTHING;
