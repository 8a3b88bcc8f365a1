-- Accounts, hardened: rules that guard a user's data, enforced where every
-- client meets them (the Data API on Supabase included), not in the app.

-- ---------------------------------------------------------------------------
-- Two-factor assurance
-- ---------------------------------------------------------------------------

-- A user with a verified second factor must have proved it in this session
-- (JWT claim aal = 'aal2') before changing anything of theirs. Supabase Auth
-- issues aal1 tokens after the password alone; without this check such a
-- token could call the database directly and skip the second factor. The
-- local platform's claims carry aal too (app/platform/local).
--
-- has_assurance() is for policies (it runs as the caller, so the API roles
-- may execute it); assert_assurance() is for definer functions and raises
-- error-aal2-required. Both read auth.mfa_factors with definer rights:
-- the API roles have no privilege on the auth schema's tables.
create function app_private.has_assurance()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt()) ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid())
        and f.status = 'verified'
    );
$$;

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

grant usage on schema app_private to authenticated;
revoke all on function app_private.has_assurance() from public, anon, authenticated;
revoke all on function app_private.assert_assurance() from public, anon, authenticated;
grant execute on function app_private.has_assurance() to authenticated;

-- ---------------------------------------------------------------------------
-- Two-factor assurance on everything a user writes
-- ---------------------------------------------------------------------------

-- Profiles are written straight through the Data API (RLS, column grants):
-- the policies ask for the assurance, in USING too so an aal1 token cannot
-- even aim an update at its own row.
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
-- Consents: published versions only, second factor proven
-- ---------------------------------------------------------------------------

create or replace function public.give_consent(p_kind text, p_version text)
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

revoke all on function public.give_consent(text, text) from public, anon, authenticated;
grant execute on function public.give_consent(text, text) to anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Coins survive account deletion
-- ---------------------------------------------------------------------------

-- An account whose wallet holds coins is not deleted, whoever deletes it
-- (Supabase's admin API, Better Auth's user deletion, an operator): the
-- wallet would go with it by cascade and the coins would vanish. The wallet
-- row is locked first, so a credit committed concurrently is either seen
-- here or waits and then finds no wallet. The Money work replaces this body
-- with a forfeit through the ledger.
create function app_private.before_user_delete()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  coins bigint;
begin
  select w.balance into coins from public.wallets w where w.id = old.id for update;
  if coins > 0 then
    raise exception using message = 'error-wallet-not-empty', errcode = 'P0001';
  end if;
  return old;
end;
$$;

revoke all on function app_private.before_user_delete() from public, anon, authenticated, service_role;

create trigger before_user_delete
  before delete on auth.users
  for each row execute function app_private.before_user_delete();
