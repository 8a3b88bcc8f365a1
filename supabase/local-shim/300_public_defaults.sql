-- Local platform only: Supabase's privileges on schema public
-- (supabase/postgres: 00000000000000-initial-schema.sql). The API roles may
-- use the schema and receive ALL on every table, function and sequence the
-- migration role creates there; row-level security and explicit revokes in
-- the migrations are what actually keep data private. Reproducing this
-- permissive default locally is deliberate: a migration that forgot a revoke
-- fails the same tests here that it would fail on Supabase.
--
-- Default privileges apply to objects created by the role that runs this
-- file, which is the role that runs the migrations (migrate.server.ts runs
-- both on one connection).

grant usage on schema public to anon, authenticated, service_role;

alter default privileges in schema public
  grant all on tables to anon, authenticated, service_role;
alter default privileges in schema public
  grant all on functions to anon, authenticated, service_role;
alter default privileges in schema public
  grant all on sequences to anon, authenticated, service_role;
