-- Local platform only: Supabase's privileges on schema public
-- (supabase/postgres: 00000000000000-initial-schema.sql). The API roles may
-- use the schema and, as a new project starts, receive ALL on every table,
-- function and sequence the migration role (postgres there, app_owner here)
-- creates there. supabase/migrations/20261124000000_privileges.sql takes
-- that default back; reproducing the permissive start locally is
-- deliberate, so a migration that relied on it fails here as it would on
-- Supabase.
--
-- A project gets these defaults once, when it is created, before any
-- migration; so does a local database. Granting them again on every
-- migrate() would undo the privileges migration on the next start.

grant usage on schema public to anon, authenticated, service_role;

do $$
begin
  if not exists (select 1 from supabase_migrations.schema_migrations) then
    alter default privileges for role app_owner in schema public
      grant all on tables to anon, authenticated, service_role;
    alter default privileges for role app_owner in schema public
      grant all on functions to anon, authenticated, service_role;
    alter default privileges for role app_owner in schema public
      grant all on sequences to anon, authenticated, service_role;
  end if;
end
$$;
