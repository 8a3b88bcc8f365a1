-- supabase/schemas/core.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Profiles, public profiles, new users, rate limits and the default privileges: what every other domain builds on.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

-- Core schema: profiles, wallets, creator profiles, sessions and consents,
-- with their row-level security, the new-user trigger, the first remote
-- procedures (docs/product.md §4) and the realtime authorisation of wallet topics.
--
-- Applies unchanged to a Supabase project (supabase db push) and to plain
-- Postgres / PGlite after supabase/local-shim: core Postgres only, no
-- extension.
--
-- Privileges: Supabase's default privileges grant anon and authenticated ALL
-- on every new table and function in public (and projects created with the
-- Data API's "expose new tables" switch off grant nothing). Each object below
-- therefore revokes everything from the API roles and grants back exactly
-- what it needs, so the outcome is the same under either default.
--
-- Refusals raise exceptions whose message is an `error-...` code (SQLSTATE
-- P0001); the app shows them through the translation key errors.<code>.

-- ---------------------------------------------------------------------------
-- Shared trigger function
-- ---------------------------------------------------------------------------
create function public.set_updated_at()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  new.updated_at := now();
  return new;
end;
$$;
revoke all on function public.set_updated_at() from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Profiles
-- ---------------------------------------------------------------------------
create table public.profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  -- The username rule (docs/product.md §7.1: 1 to 30 of a-z, 0-9, dot, underscore). The app
  -- lower-cases input before it gets here; the rule forbids upper case, so
  -- uniqueness on the stored value is uniqueness regardless of case.
  username text not null
    constraint profiles_username_format check (username ~ '^[a-z0-9._]{1,30}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  -- The language of the user's last dare or report (en, de, es, tr): mails
  -- about moderation decisions are written in it (docs/product.md §13).
  language text
    constraint profiles_language_valid check (language in ('en', 'de', 'es', 'tr'))
);
create unique index profiles_username_key on public.profiles (username);
alter table public.profiles enable row level security;

-- The username format is left to profiles_username_format rather than
-- repeated in WITH CHECK: a bad name then fails as a check violation with a
-- constraint name the app can map (error-invalid-username), instead of as an
-- anonymous RLS violation.
create policy "Users can read their own profile"
  on public.profiles for select to authenticated
  using (id = (select auth.uid()));
create policy "Users can create their own profile"
  on public.profiles for insert to authenticated
  with check (id = (select auth.uid()));
create policy "Users can change their own profile"
  on public.profiles for update to authenticated
  using (id = (select auth.uid()))
  with check (id = (select auth.uid()));

-- No delete policy: a profile goes with its account (on delete cascade).
-- Column grants keep the row's id and timestamps out of the user's hands.
revoke all on table public.profiles from anon, authenticated;
grant select on table public.profiles to authenticated;
grant insert (id, username) on table public.profiles to authenticated;
grant update (username) on table public.profiles to authenticated;
grant all on table public.profiles to service_role;

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function public.set_updated_at();

-- Usernames are public (creators and dare authors are shown by name). The
-- view runs with its owner's rights on purpose, so it can show every row of
-- profiles, and exposes nothing but id and username. It is read-only for
-- the API roles: a simple view is auto-updatable and would otherwise let
-- writes through with the owner's rights.
create view public.public_profiles
  with (security_invoker = false)
  as select id, username from public.profiles;

revoke all on table public.public_profiles from anon, authenticated;

grant select on table public.public_profiles to anon, authenticated, service_role;

create function public.is_username_available(check_username text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select case
    when candidate is null or candidate !~ '^[a-z0-9._]{1,30}$' then false
    else not exists (select 1 from public.profiles p where p.username = candidate)
  end
  from (select lower(btrim(check_username)) as candidate) as input;
$$;
revoke all on function public.is_username_available(text) from public;
grant execute on function public.is_username_available(text) to anon, authenticated, service_role;

-- Every account gets its wallet the moment it exists, whoever creates it
-- (Supabase Auth, the local auth layer, an operator).
create function public.handle_new_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into public.wallets (id) values (new.id);
  return new;
end;
$$;
revoke all on function public.handle_new_user() from public, anon, authenticated, service_role;

create trigger on_auth_user_created
  after insert on auth.users
  for each row execute function public.handle_new_user();

-- Rate-limit counters for the Supabase platform's account routes
-- (app/modules/account/rate-limit.server.ts), shared by every app
-- instance: sign-in, sign-up, reset, resend and the rest count per address
-- and per IP here, as the local platform counts in
-- better_auth.app_rate_limit (supabase/local-shim/150_better_auth.sql).
--
-- Keys are HMACs of "scope:address" or "scope:ip" under a server secret,
-- never the address itself. Only the app's server connection (the database
-- owner) reads and writes them: the schema is not exposed through the Data
-- API, and the API roles get nothing.
create schema if not exists app_private;

revoke all on schema app_private from public, anon, authenticated;

create table app_private.rate_limits (
  key text primary key,
  window_started_at timestamptz not null,
  hits integer not null
);
revoke all on table app_private.rate_limits from public, anon, authenticated;

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
