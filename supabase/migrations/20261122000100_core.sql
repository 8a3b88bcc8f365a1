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
  updated_at timestamptz not null default now()
);

create unique index profiles_username_key on public.profiles (username);

create trigger profiles_set_updated_at
  before update on public.profiles
  for each row execute function public.set_updated_at();

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

-- ---------------------------------------------------------------------------
-- Wallets
-- ---------------------------------------------------------------------------

create table public.wallets (
  id uuid primary key references auth.users (id) on delete cascade,
  balance bigint not null default 0
    constraint wallets_balance_not_negative check (balance >= 0),
  updated_at timestamptz not null default now()
);

create trigger wallets_set_updated_at
  before update on public.wallets
  for each row execute function public.set_updated_at();

alter table public.wallets enable row level security;

create policy "Users can read their own wallet"
  on public.wallets for select to authenticated
  using (id = (select auth.uid()));

-- No insert, update or delete policy and no such privilege: balances move
-- only inside security definer functions that write the ledger in the same
-- transaction.
revoke all on table public.wallets from anon, authenticated;
grant select on table public.wallets to authenticated;
grant all on table public.wallets to service_role;

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

-- ---------------------------------------------------------------------------
-- Creator profiles
-- ---------------------------------------------------------------------------

-- Channel names: 1 to 64 of letters, digits, underscore, dot and hyphen, not
-- starting with a dot or hyphen. That covers Twitch logins, Kick slugs and
-- YouTube handles (stored without the @) and channel ids, and every such name
-- is a safe URL path segment (/{lang}/{platform}/{channel}; never "." or
-- ".."). A channel belongs to one creator, compared case-insensitively as
-- the platforms do.
create table public.creator_profiles (
  id uuid primary key references auth.users (id) on delete cascade,
  twitch_channel text
    constraint creator_profiles_twitch_channel_format
    check (twitch_channel ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$'),
  youtube_channel text
    constraint creator_profiles_youtube_channel_format
    check (youtube_channel ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$'),
  kick_channel text
    constraint creator_profiles_kick_channel_format
    check (kick_channel ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$'),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create unique index creator_profiles_twitch_channel_key on public.creator_profiles (lower(twitch_channel));
create unique index creator_profiles_youtube_channel_key on public.creator_profiles (lower(youtube_channel));
create unique index creator_profiles_kick_channel_key on public.creator_profiles (lower(kick_channel));

create trigger creator_profiles_set_updated_at
  before update on public.creator_profiles
  for each row execute function public.set_updated_at();

alter table public.creator_profiles enable row level security;

create policy "Users can read their own creator profile"
  on public.creator_profiles for select to authenticated
  using (id = (select auth.uid()));

-- Linking and unlinking channels is privileged work (OAuth callbacks, the
-- operator command) done as service_role until dedicated functions exist.
revoke all on table public.creator_profiles from anon, authenticated;
grant select on table public.creator_profiles to authenticated;
grant all on table public.creator_profiles to service_role;

-- ---------------------------------------------------------------------------
-- Sessions
-- ---------------------------------------------------------------------------

create table public.sessions (
  id uuid primary key default gen_random_uuid(),
  creator_id uuid not null references auth.users (id) on delete cascade,
  status text not null default 'active'
    constraint sessions_status_valid check (status in ('active', 'ended')),
  title text not null
    constraint sessions_title_length
    check (char_length(btrim(title)) between 1 and 140 and char_length(title) <= 140),
  platform text not null
    constraint sessions_platform_valid check (platform in ('twitch', 'youtube', 'kick')),
  channel text not null
    constraint sessions_channel_format check (channel ~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$'),
  -- The start-session minima (docs/product.md §5.2); coins and seconds.
  min_boost integer not null default 200
    constraint sessions_min_boost_valid check (min_boost >= 50 and min_boost % 10 = 0),
  max_dares_per_user integer not null default 5
    constraint sessions_max_dares_per_user_valid check (max_dares_per_user >= 1),
  max_free_dares_per_user integer not null default 1
    constraint sessions_max_free_dares_per_user_valid
    check (max_free_dares_per_user between 0 and max_dares_per_user),
  voting_duration integer not null default 180
    constraint sessions_voting_duration_valid check (voting_duration >= 30 and voting_duration % 5 = 0),
  created_at timestamptz not null default now(),
  ended_at timestamptz,
  constraint sessions_ended_at_matches_status check ((status = 'ended') = (ended_at is not null)),
  constraint sessions_ended_after_start check (ended_at >= created_at)
);

-- At most one active session per creator and per channel (docs/product.md §5.3). As
-- unique indexes they also serialise two concurrent starts: the second
-- insert waits for the first and then fails instead of both succeeding.
create unique index sessions_one_active_per_creator
  on public.sessions (creator_id) where status = 'active';
create unique index sessions_one_active_per_channel
  on public.sessions (platform, lower(channel)) where status = 'active';

-- /{lang}/{platform}/{channel} falls back to the channel's last session.
create index sessions_channel_latest_idx
  on public.sessions (platform, lower(channel), created_at desc);
-- A creator's sessions, and the foreign key's cascade on account deletion.
create index sessions_creator_latest_idx
  on public.sessions (creator_id, created_at desc);

alter table public.sessions enable row level security;

create policy "Sessions are public"
  on public.sessions for select to anon, authenticated
  using (true);

-- Starting and stopping sessions go through functions that check the rules.
revoke all on table public.sessions from anon, authenticated;
grant select on table public.sessions to anon, authenticated;
grant all on table public.sessions to service_role;

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
  using (user_id = (select auth.uid()));

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

  if p_kind is null or p_kind not in ('terms_of_service', 'creator_agreement') then
    raise exception using message = 'error-invalid-consent-type', errcode = 'P0001';
  end if;

  if p_version is null or p_version !~ '^[A-Za-z0-9._-]{1,32}$' then
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

-- ---------------------------------------------------------------------------
-- Realtime: private wallet topics
-- ---------------------------------------------------------------------------

-- wallets_{userId} carries the user's balance: only that user may receive on
-- it. Realtime (and the local relay) evaluates this policy with the topic
-- being joined in realtime.topic() and the joining user's JWT claims set.
-- The row's own topic must be the joined one too: Realtime's probe row
-- always is, and it keeps stored broadcasts of other topics unreadable even
-- to someone who can set realtime.topic.
-- No insert policy: clients never broadcast on a wallet topic; the database
-- does, through realtime.send() from definer-rights functions.
create policy "Users receive broadcasts on their own wallet topic"
  on realtime.messages for select to authenticated
  using (
    (select realtime.topic()) = 'wallets_' || (select auth.uid())::text
    and realtime.messages.topic = (select realtime.topic())
    and realtime.messages.extension = 'broadcast'
  );
