-- Local platform only (PGlite or a plain Postgres server), applied before
-- supabase/migrations by app/db/migrate.server.ts. Supabase creates these
-- roles itself (supabase/postgres: migrations/db/init-scripts/
-- 00000000000000-initial-schema.sql); this file recreates them with the same
-- attributes so the migrations' grants and policies mean the same thing here.
--
-- Every file in this folder is idempotent: it runs on every migrate().

-- Roles are cluster-wide while the migration lock is per database, so two
-- databases of one server (parallel test runs, a template and its clone) can
-- race to create them: the loser's duplicate is swallowed.
do $$
declare
  r record;
begin
  for r in
    select * from (values
      ('anon', false),
      ('authenticated', false),
      -- service_role bypasses RLS, as on Supabase: it is for named privileged
      -- work (app/db/as-user.server.ts asServiceRole), never for a request.
      ('service_role', true)
    ) as v (name, bypass_rls)
  loop
    if not exists (select 1 from pg_catalog.pg_roles where rolname = r.name) then
      begin
        execute format(
          'create role %I nologin noinherit%s',
          r.name,
          case when r.bypass_rls then ' bypassrls' else '' end
        );
      exception when duplicate_object or unique_violation then
        null;
      end;
    elsif r.bypass_rls and not (select rolbypassrls from pg_catalog.pg_roles where rolname = r.name) then
      execute format('alter role %I bypassrls', r.name);
    end if;

    -- The app connects as current_user and impersonates the API roles with
    -- set_config('role', ...) inside each transaction, as PostgREST's
    -- authenticator does; that needs membership (superusers have it anyway).
    if not pg_catalog.pg_has_role(current_user, r.name, 'member') then
      begin
        execute format('grant %I to %I', r.name, current_user);
      exception when duplicate_object or unique_violation then
        null;
      end;
    end if;
  end loop;
end
$$;
