-- Local platform only (PGlite or a plain Postgres server), applied before
-- supabase/migrations by app/db/migrate.server.ts. Supabase creates these
-- roles itself (supabase/postgres: migrations/db/init-scripts/
-- 00000000000000-initial-schema.sql and the migrations that demote
-- postgres); this file recreates them with the same attributes so the
-- migrations' grants, policies and ownership mean the same thing here.
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
      ('service_role', true),
      -- Owners of what Supabase's services own: auth.* (GoTrue's
      -- supabase_auth_admin) and realtime.* (supabase_admin here; the
      -- Realtime server's own role on a project). Nobody logs in as them.
      ('supabase_auth_admin', false),
      ('supabase_admin', false),
      -- Stands in for Supabase's `postgres`, the role `supabase db push` runs
      -- the migrations as: not a superuser, BYPASSRLS as on Supabase (ALTER
      -- ROLE postgres NOSUPERUSER ... BYPASSRLS in supabase/postgres's
      -- demote-postgres migration), owner of everything the migrations
      -- create, and a member of neither supabase_auth_admin nor
      -- supabase_admin. It cannot be called postgres here: that name is
      -- the superuser of PGlite and of most servers. It does not get
      -- CREATEROLE (Supabase's postgres has it, fenced by supautils): a
      -- migration has no business creating roles, and with CREATEROLE on
      -- Postgres 15 it could grant itself the admin roles above.
      ('app_owner', true)
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
    -- It also owns, through membership, what the service roles own: Better
    -- Auth writes auth.users, the seed writes public, and the migration
    -- runner switches to app_owner. Membership goes one way only: app_owner
    -- is a member of nothing.
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

-- What Supabase grants postgres on its database (GRANT ALL ON DATABASE
-- postgres TO postgres): it may create schemas (app_private) and objects in
-- public. Not the database's ownership.
do $$
begin
  execute format('grant create, connect, temporary on database %I to app_owner', current_database());
end
$$;
grant usage, create on schema public to app_owner;
