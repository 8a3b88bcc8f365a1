-- supabase/schemas/account.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Accounts: published documents and consents, two-factor assurance, account deletion, revoked sessions.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

-- Accounts, hardened: rules that guard a user's data, enforced where every
-- client meets them (the Data API on Supabase included), not in the app.

-- ---------------------------------------------------------------------------
-- Two-factor assurance
-- ---------------------------------------------------------------------------

-- A user with a verified second factor must have proved it in this session
-- (JWT claim aal = 'aal2') before changing anything of theirs. Supabase Auth
-- issues aal1 tokens after the password alone; without this check such a
-- token could call the database directly and skip the second factor. The
-- local platform's claims carry aal too (app/modules/account/backends/better-auth).
--
-- has_assurance() is for policies (it runs as the caller, so the API roles
-- may execute it); assert_assurance() is for definer functions and raises
-- error-aal2-required. Both read auth.mfa_factors with definer rights:
-- the API roles have no privilege on the auth schema's tables.
-- In PL/pgSQL, like is_operator, current_document_version and
-- ledger.spending_restricted, which every boost or many policies call: a SQL
-- function with its own search_path is never inlined, and its plan does not
-- outlive the statement that called it; a PL/pgSQL one keeps its plans for
-- the connection (the four together: boosts on one connection 872 -> 1,010
-- to 1,126 a second; docs/decisions/055-hot-dare.md).
create function app_private.has_assurance()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return coalesce((select auth.jwt()) ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid())
        and f.status = 'verified'
    );
end;
$$;
revoke all on function app_private.has_assurance() from public, anon, authenticated;
grant execute on function app_private.has_assurance() to authenticated;

create function app_private.assert_assurance()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not app_private.has_assurance() then
    raise exception using message = 'error-aal2-required', errcode = 'P0001';
  end if;
end;
$$;
revoke all on function app_private.assert_assurance() from public, anon, authenticated;

grant usage on schema app_private to authenticated;


-- ---------------------------------------------------------------------------
-- Consents
-- ---------------------------------------------------------------------------
create table public.consents (
  user_id uuid not null references auth.users (id) on delete cascade,
  kind text not null
    constraint consents_kind_valid check (kind in ('terms_of_service', 'creator_agreement')),
  -- Versions come from public configuration (e.g. "2026-11-01" or "v2").
  version text not null
    constraint consents_version_format check (version ~ '^[A-Za-z0-9._-]{1,32}$'),
  accepted_at timestamptz not null default now(),
  primary key (user_id, kind, version)
);
alter table public.consents enable row level security;
create policy "Users can read their own consents"
  on public.consents for select to authenticated
  using (user_id = (select auth.uid()) and (select app_private.has_assurance()));

-- Consents are recorded only through give_consent(), which stamps the
-- caller's id and the time itself.
revoke all on table public.consents from anon, authenticated;
grant select on table public.consents to authenticated;
grant all on table public.consents to service_role;

-- One row for anyone, visitors included (false, false), so callers need no
-- special case. Definer rights only so that anon, which has no privilege on
-- consents, gets that row rather than an error; it reads the caller's rows
-- only.
create function public.has_consented(p_tos_version text, p_ca_version text)
returns table (terms_of_service boolean, creator_agreement boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select
    exists (
      select 1 from public.consents c
      where c.user_id = (select auth.uid())
        and c.kind = 'terms_of_service'
        and c.version = p_tos_version
    ),
    exists (
      select 1 from public.consents c
      where c.user_id = (select auth.uid())
        and c.kind = 'creator_agreement'
        and c.version = p_ca_version
    );
$$;
revoke all on function public.has_consented(text, text) from public;
grant execute on function public.has_consented(text, text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Consents: published versions only, second factor proven
-- ---------------------------------------------------------------------------
create function public.give_consent(p_kind text, p_version text)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;

  perform app_private.assert_assurance();

  if p_kind is null or p_kind not in ('terms_of_service', 'creator_agreement') then
    raise exception using message = 'error-invalid-consent-type', errcode = 'P0001';
  end if;

  if p_version is null or not exists (
    select 1 from public.published_documents d
    where d.kind = p_kind and d.version = p_version
  ) then
    raise exception using message = 'error-invalid-consent-version', errcode = 'P0001';
  end if;

  -- Accepting the same version twice (double click, retried request) keeps
  -- the first acceptance time.
  insert into public.consents (user_id, kind, version)
  values (caller, p_kind, p_version)
  on conflict (user_id, kind, version) do nothing;
end;
$$;

-- anon may call it so that a visitor gets error-not-authenticated rather
-- than a permission error.
revoke all on function public.give_consent(text, text) from public;
grant execute on function public.give_consent(text, text) to anon, authenticated, service_role;
revoke all on function public.give_consent(text, text) from public, anon, authenticated;
grant execute on function public.give_consent(text, text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Two-factor assurance on everything a user writes
-- ---------------------------------------------------------------------------

-- Profiles are read and written straight through the Data API (RLS, column
-- grants): the policies ask for the assurance, in USING too so an aal1 token
-- can neither read its own row nor even aim an update at it.
alter policy "Users can read their own profile"
  on public.profiles
  using (id = (select auth.uid()) and (select app_private.has_assurance()));

alter policy "Users can create their own profile"
  on public.profiles
  with check (id = (select auth.uid()) and (select app_private.has_assurance()));

alter policy "Users can change their own profile"
  on public.profiles
  using (id = (select auth.uid()) and (select app_private.has_assurance()))
  with check (id = (select auth.uid()) and (select app_private.has_assurance()));

-- ---------------------------------------------------------------------------
-- Published document versions
-- ---------------------------------------------------------------------------

-- The versions of the terms of service and the creator agreement that exist:
-- a consent can only be given to one of them. The app publishes the
-- configured versions at start-up through its owner connection; no API role
-- writes here (the table owner bypasses RLS and needs no policy).
create table public.published_documents (
  kind text not null
    constraint published_documents_kind_valid check (kind in ('terms_of_service', 'creator_agreement')),
  version text not null
    constraint published_documents_version_format check (version ~ '^[A-Za-z0-9._-]{1,32}$'),
  published_at timestamptz not null default now(),
  primary key (kind, version)
);
alter table public.published_documents enable row level security;
create policy "Published documents are public"
  on public.published_documents for select to anon, authenticated
  using (true);
revoke all on table public.published_documents from anon, authenticated;
grant select on table public.published_documents to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Coins survive account deletion
-- ---------------------------------------------------------------------------

-- Before an auth.users row goes (Supabase Auth's admin delete, the local
-- auth layer, an operator): settle the user's sessions, then forfeit the
-- wallet through the ledger, so the cascade that removes the wallet finds it
-- empty. Deletion is never refused for the coins a wallet holds.
create function app_private.before_user_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform app_private.stop_sessions_of_deleted_user(old.id);
  perform ledger.forfeit_wallet(old.id);
  return old;
end;
$$;
revoke all on function app_private.before_user_delete() from public, anon, authenticated, service_role;

create trigger before_user_delete
  before delete on auth.users
  for each row execute function app_private.before_user_delete();

-- Creators and live sessions: linking channels, starting and stopping a
-- session. Every rule of docs/product.md §5 and §10.9 is checked here
-- again, because on Supabase any signed-in browser can call these functions
-- through the Data API without the app in between. Limits the product's
-- first description left open are decided in
-- docs/decisions/018-session-limits-and-channel-linking.md.
--
-- Every function takes the caller from auth.uid(), runs with definer rights
-- and search_path = '', refuses with an `error-...` message (P0001) and is
-- executable by exactly the roles that need it.

-- ---------------------------------------------------------------------------
-- The current version of a published document
-- ---------------------------------------------------------------------------

-- A document's current version: the one published last
-- (public.published_documents; the app publishes the versions of its legal
-- documents at start-up). create_session requires the creator agreement's.
create function app_private.current_document_version(p_kind text)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (
    select d.version
    from public.published_documents d
    where d.kind = p_kind
    order by d.published_at desc, d.version desc
    limit 1
  );
end;
$$;
revoke all on function app_private.current_document_version(text) from public, anon, authenticated;

create function app_private.mark_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic) values ('auth_sessions_' || old.id);
  return null;
end;
$$;
revoke all on function app_private.mark_auth_user() from public, anon, authenticated;

create constraint trigger auth_user_sessions_changed
  after update on auth.users
  deferrable initially deferred
  for each row
  when (
    new.banned_until is distinct from old.banned_until
    or new.email is distinct from old.email
    or new.deleted_at is distinct from old.deleted_at
  )
  execute function app_private.mark_auth_user();

create constraint trigger auth_user_deleted
  after delete on auth.users
  deferrable initially deferred
  for each row execute function app_private.mark_auth_user();

-- ---------------------------------------------------------------------------
-- Operators (docs/product.md §13)
-- ---------------------------------------------------------------------------

-- The people who run the service decide reports and appeals. Granted and
-- revoked only with the owner connection (`npm run operator:grant -- <email>`,
-- `npm run operator:revoke -- <email>`), never through the Data API: the API
-- roles have no privilege on this table.
create table app_private.operators (
  user_id uuid primary key references auth.users (id) on delete cascade,
  granted_at timestamptz not null default now()
);
revoke all on table app_private.operators from public, anon, authenticated, service_role;

-- The caller is an operator who has proved their second factor, if they have
-- one. For policies too (it runs with definer rights, so a signed-in caller
-- may execute it without reading the table).
create function app_private.is_operator()
returns boolean
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  return (select auth.uid()) is not null
    and exists (select 1 from app_private.operators o where o.user_id = (select auth.uid()))
    and app_private.has_assurance();
end;
$$;
revoke all on function app_private.is_operator() from public, anon, authenticated;
grant execute on function app_private.is_operator() to authenticated;
