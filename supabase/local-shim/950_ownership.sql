-- Local platform only: who owns what, as on a Supabase project, so that the
-- migrations (run as app_owner, see 000_roles.sql) meet the limits they meet
-- under `supabase db push` as postgres:
--
--  * auth belongs to supabase_auth_admin (GoTrue's role). The migration role
--    gets ALL on its tables and functions (supabase/postgres's
--    demote-postgres migration) but no CREATE on the schema and no
--    ownership (lock_down / revoke_admin_roles migrations): it can add
--    triggers, foreign keys and grants, and cannot alter a table, add an
--    index or create a function there.
--  * realtime belongs to supabase_admin; the migration role may use the
--    schema (with grant option) but not create in it. realtime.messages
--    itself is owned by app_owner: on Supabase, supautils' policy_grants
--    lets postgres create policies on it without owning it, and Postgres
--    has no grant for that, so ownership is the nearest local equivalent.
--    (A migration that alters realtime.messages therefore passes here and
--    fails on Supabase: ADR 015.)
--
-- The app's own connection is a member of these roles (000_roles.sql), so
-- Better Auth, the seed and this file keep working whoever owns the objects.

alter schema auth owner to supabase_auth_admin;
alter schema realtime owner to supabase_admin;

do $$
declare
  r record;
begin
  -- Tables, views and free-standing sequences (identity and serial sequences
  -- follow their table).
  for r in
    select n.nspname, c.relname, c.relkind,
      case
        when n.nspname = 'auth' then 'supabase_auth_admin'
        when c.relname = 'messages' then 'app_owner'
        else 'supabase_admin'
      end as new_owner
    from pg_catalog.pg_class c
    join pg_catalog.pg_namespace n on n.oid = c.relnamespace
    where n.nspname in ('auth', 'realtime')
      and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
      and not (c.relkind = 'S' and exists (
        select 1 from pg_catalog.pg_depend d
        where d.classid = 'pg_catalog.pg_class'::regclass and d.objid = c.oid
          and d.refclassid = 'pg_catalog.pg_class'::regclass and d.deptype in ('a', 'i')
      ))
  loop
    if (select c.relowner::regrole::text from pg_catalog.pg_class c
        where c.oid = format('%I.%I', r.nspname, r.relname)::regclass) is distinct from r.new_owner then
      execute format('alter table %I.%I owner to %I', r.nspname, r.relname, r.new_owner);
    end if;
  end loop;

  for r in
    select p.oid::regprocedure as fn, n.nspname
    from pg_catalog.pg_proc p
    join pg_catalog.pg_namespace n on n.oid = p.pronamespace
    where n.nspname in ('auth', 'realtime')
  loop
    execute format(
      'alter routine %s owner to %I',
      r.fn,
      case when r.nspname = 'auth' then 'supabase_auth_admin' else 'supabase_admin' end
    );
  end loop;

  -- Databases migrated before the migrations ran as app_owner: their objects
  -- belong to the connecting role. Hand them over once, so that a later
  -- migration (create or replace, alter) can act on them.
  if current_user <> 'app_owner' then
    for r in
      select n.nspname, c.relname
      from pg_catalog.pg_class c
      join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname in ('public', 'app_private')
        and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        and c.relowner = (select oid from pg_catalog.pg_roles where rolname = current_user)
      and not (c.relkind = 'S' and exists (
          select 1 from pg_catalog.pg_depend d
          where d.classid = 'pg_catalog.pg_class'::regclass and d.objid = c.oid
            and d.refclassid = 'pg_catalog.pg_class'::regclass and d.deptype in ('a', 'i')
        ))
    loop
      execute format('alter table %I.%I owner to app_owner', r.nspname, r.relname);
    end loop;

    for r in
      select p.oid::regprocedure as fn
      from pg_catalog.pg_proc p
      join pg_catalog.pg_namespace n on n.oid = p.pronamespace
      where n.nspname in ('public', 'app_private')
        and p.proowner = (select oid from pg_catalog.pg_roles where rolname = current_user)
    loop
      execute format('alter routine %s owner to app_owner', r.fn);
    end loop;

    if exists (
      select 1 from pg_catalog.pg_namespace
      where nspname = 'app_private' and nspowner = (select oid from pg_catalog.pg_roles where rolname = current_user)
    ) then
      alter schema app_private owner to app_owner;
    end if;
  end if;
end
$$;

-- What Supabase's postgres may do in auth: use it, read and write its
-- tables, reference them, put triggers on them, call its functions.
grant usage on schema auth to app_owner;
revoke create on schema auth from app_owner;
grant all on all tables in schema auth to app_owner;
grant all on all routines in schema auth to app_owner;

grant usage on schema realtime to app_owner with grant option;
revoke create on schema realtime from app_owner;
