-- Deny by default: nothing the migrations create is reachable through the
-- Data API unless the migration that creates it grants it.
--
-- A Supabase project starts with default privileges that give anon,
-- authenticated and service_role ALL on every table, sequence and function
-- that postgres (the role `supabase db push` runs as) creates in public
-- (supabase/postgres: init-scripts/00000000000000-initial-schema.sql), and
-- Postgres itself lets PUBLIC execute every new function in any schema. So a
-- migration that forgot its revokes was open: a plain view over a private
-- table answered and accepted writes with its owner's rights, a new definer
-- function was callable by anon. From here on a new object is private until
-- a grant says otherwise; every migration still revokes and grants per
-- object, so the outcome does not depend on these defaults.
--
-- ALTER DEFAULT PRIVILEGES without FOR ROLE applies to the role running this
-- file, which is the role that runs every migration (postgres on Supabase,
-- app_owner locally): exactly the objects migrations create. Objects that
-- supabase_admin creates (extensions installed from the dashboard) keep
-- Supabase's defaults; a migration cannot change another role's defaults.
-- service_role keeps its defaults: it is the server's own key, bypasses RLS
-- anyway and is never handed to a browser.

alter default privileges in schema public revoke all on tables from anon, authenticated;
alter default privileges in schema public revoke all on sequences from anon, authenticated;
alter default privileges in schema public revoke all on functions from anon, authenticated;

-- EXECUTE for PUBLIC is a built-in default for functions in every schema,
-- so it is revoked globally (a per-schema entry can only add to it). PUBLIC
-- includes anon and authenticated, and app_private is usable by
-- authenticated.
alter default privileges revoke execute on functions from public;
