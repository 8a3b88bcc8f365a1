-- supabase/schemas/channels.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Channels: a creator's linked Twitch, YouTube and Kick channels, and the proof that a channel is theirs.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

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
alter table public.creator_profiles enable row level security;
create policy "Users can read their own creator profile"
  on public.creator_profiles for select to authenticated
  using (id = (select auth.uid()) and (select app_private.has_assurance()));

-- Linking and unlinking channels is privileged work (OAuth callbacks, the
-- operator command) done as service_role until dedicated functions exist.
revoke all on table public.creator_profiles from anon, authenticated;
grant select on table public.creator_profiles to authenticated;
grant all on table public.creator_profiles to service_role;

create trigger creator_profiles_set_updated_at
  before update on public.creator_profiles
  for each row execute function public.set_updated_at();

-- ---------------------------------------------------------------------------
-- Channels
-- ---------------------------------------------------------------------------

-- The creator_profiles column of a platform, as a value (for the functions
-- below, which cannot name a column by a variable without dynamic SQL).
create function app_private.linked_channel(p_profile public.creator_profiles, p_platform text)
returns text
language sql
immutable
set search_path = ''
as $$
  select case p_platform
    when 'twitch' then p_profile.twitch_channel
    when 'youtube' then p_profile.youtube_channel
    when 'kick' then p_profile.kick_channel
  end;
$$;
revoke all on function app_private.linked_channel(public.creator_profiles, text) from public, anon, authenticated;

-- Link (p_channel) or unlink (null) a user's channel on a platform, for the
-- functions below and the operator command (scripts/creator-link.ts); never
-- granted to an API role. A channel belongs to one creator at most
-- (creator_profiles' unique indexes: error-channel-taken). A channel with a
-- live session stays as it is until the session is stopped
-- (error-channel-in-use), so a session is never left on a channel that is no
-- longer its creator's. A creator profile without any channel is removed: the
-- user is no longer a creator.
create function app_private.set_channel(p_user_id uuid, p_platform text, p_channel text)
returns public.creator_profiles
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  profile public.creator_profiles;
  current_channel text;
begin
  if p_platform is null or p_platform not in ('twitch', 'youtube', 'kick') then
    raise exception using message = 'error-invalid-platform', errcode = 'P0001';
  end if;
  if p_channel is not null and p_channel !~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$' then
    raise exception using message = 'error-invalid-channel', errcode = 'P0001';
  end if;
  if not exists (select 1 from auth.users u where u.id = p_user_id) then
    raise exception using message = 'error-user-not-found', errcode = 'P0001';
  end if;

  -- Creates the row if needed and locks it: linking, unlinking and starting
  -- a session of one creator happen one after the other.
  insert into public.creator_profiles (id) values (p_user_id) on conflict (id) do nothing;
  select * into profile from public.creator_profiles where id = p_user_id for update;
  current_channel := app_private.linked_channel(profile, p_platform);

  if current_channel is not null
    and (p_channel is null or lower(p_channel) <> lower(current_channel))
    and exists (
      select 1 from public.sessions s
      where s.creator_id = p_user_id and s.status = 'active' and s.platform = p_platform
    )
  then
    raise exception using message = 'error-channel-in-use', errcode = 'P0001';
  end if;

  update public.creator_profiles set
    twitch_channel = case when p_platform = 'twitch' then p_channel else twitch_channel end,
    youtube_channel = case when p_platform = 'youtube' then p_channel else youtube_channel end,
    kick_channel = case when p_platform = 'kick' then p_channel else kick_channel end
  where id = p_user_id
  returning * into profile;

  if profile.twitch_channel is null and profile.youtube_channel is null and profile.kick_channel is null then
    delete from public.creator_profiles where id = p_user_id;
  end if;
  return profile;
end;
$$;
revoke all on function app_private.set_channel(uuid, text, text) from public, anon, authenticated, service_role;

-- The login of a user's Twitch identity. Supabase's Twitch provider keeps it
-- in identity_data.name (full_name is the same login, kept for older rows);
-- the local platform's mirror writes the same keys.
create function app_private.twitch_login(p_user_id uuid)
returns text
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(nullif(i.identity_data ->> 'name', ''), nullif(i.identity_data ->> 'full_name', ''))
  from auth.identities i
  where i.user_id = p_user_id and i.provider = 'twitch'
  order by i.updated_at desc nulls last
  limit 1;
$$;
revoke all on function app_private.twitch_login(uuid) from public, anon, authenticated, service_role;

-- Signing in with Twitch (or connecting Twitch to an account) links that
-- Twitch channel (docs/product.md §10.9), on both platforms, whoever writes the identity.
-- It never stands in the way of the sign-in itself: a login that is not a
-- valid channel name, a channel another creator already has, or a live
-- session on the old channel leave the creator profile as it was, and the
-- user can link by hand later (link_twitch_channel explains why not).
create function app_private.link_twitch_identity()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  login text := coalesce(nullif(new.identity_data ->> 'name', ''), nullif(new.identity_data ->> 'full_name', ''));
begin
  if new.provider <> 'twitch' or login is null then
    return null;
  end if;
  begin
    perform app_private.set_channel(new.user_id, 'twitch', login);
  exception when unique_violation or raise_exception or check_violation then
    null;
  end;
  return null;
end;
$$;
revoke all on function app_private.link_twitch_identity() from public, anon, authenticated, service_role;

create trigger link_twitch_channel
  after insert or update of identity_data on auth.identities
  for each row execute function app_private.link_twitch_identity();

-- The Twitch button of "Linked channels" keeps its name; the rule is link_channel's.
create function public.link_twitch_channel()
returns public.creator_profiles
language sql
volatile
security definer
set search_path = ''
as $$ select * from public.link_channel('twitch') $$;
revoke all on function public.link_twitch_channel() from public, anon, authenticated;
grant execute on function public.link_twitch_channel() to authenticated;

-- The caller unlinks their channel on a platform (not while it is live).
create function public.unlink_channel(p_platform text)
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
  perform app_private.set_channel(caller, p_platform, null);
end;
$$;
revoke all on function public.unlink_channel(text) from public, anon, authenticated;
grant execute on function public.unlink_channel(text) to authenticated;

-- Linking a YouTube or Kick channel through the platform's own OAuth
-- (docs/product.md §10.9; docs/decisions/037-channel-oauth.md).
--
-- Twitch needs nothing new: Twitch sign-in writes an auth.identities row and
-- link_twitch_channel()/the identity trigger link from it. YouTube and Kick are
-- no sign-in methods, so nothing in auth.* proves that a user runs a channel
-- there. The server proves it instead: it runs the platform's OAuth
-- authorization code flow (PKCE, state bound to the browser and the user),
-- asks the platform's API for the channel of the account that consented, and
-- records that proof here with the owner's connection, as the Stripe webhook
-- records a payment. The link itself is then made by the user, through
-- public.link_channel(), which takes the caller from auth.uid(), asks for the
-- second factor, and links only a channel proved for that very caller in the
-- last ten minutes, through the one writer app_private.set_channel (one
-- creator per channel, not while live). So on Supabase a signed-in browser
-- calling the Data API can link what it proved and nothing else.
create table app_private.channel_identities (
  user_id uuid not null references auth.users (id) on delete cascade,
  platform text not null constraint channel_identities_platform check (platform in ('youtube', 'kick')),
  -- The platform's stable id of the account (Google's YouTube channel id,
  -- Kick's broadcaster user id): kept to trace a link back to its proof.
  platform_user_id text not null constraint channel_identities_platform_user_id check (length(platform_user_id) between 1 and 128),
  channel text not null,
  verified_at timestamptz not null default now(),
  primary key (user_id, platform)
);
revoke all on table app_private.channel_identities from public, anon, authenticated, service_role;

-- The server's record of a completed OAuth proof: p_user_id went through the
-- platform's consent and the platform's API named p_channel as theirs. Owner
-- only (the server's own connection after the callback, never an API role).
create function app_private.record_channel_identity(
  p_user_id uuid,
  p_platform text,
  p_platform_user_id text,
  p_channel text
)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  if p_platform is null or p_platform not in ('youtube', 'kick') then
    raise exception using message = 'error-invalid-platform', errcode = 'P0001';
  end if;
  if p_channel is null or p_channel !~ '^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$' then
    raise exception using message = 'error-invalid-channel', errcode = 'P0001';
  end if;
  if p_platform_user_id is null or length(p_platform_user_id) not between 1 and 128 then
    raise exception using message = 'error-invalid-channel', errcode = 'P0001';
  end if;
  if not exists (select 1 from auth.users u where u.id = p_user_id) then
    raise exception using message = 'error-user-not-found', errcode = 'P0001';
  end if;
  insert into app_private.channel_identities as ci (user_id, platform, platform_user_id, channel, verified_at)
  values (p_user_id, p_platform, p_platform_user_id, p_channel, now())
  on conflict (user_id, platform) do update
    set platform_user_id = excluded.platform_user_id, channel = excluded.channel, verified_at = excluded.verified_at;
end;
$$;
revoke all on function app_private.record_channel_identity(uuid, text, text, text) from public, anon, authenticated, service_role;

-- How long a proof stays good for linking: the callback links at once, so
-- this only has to cover the moments between the two calls; an old proof says
-- nothing about who runs the channel today.
create function app_private.channel_proof_ttl()
returns interval
language sql
immutable
set search_path = ''
as $$ select interval '10 minutes' $$;
revoke all on function app_private.channel_proof_ttl() from public, anon, authenticated, service_role;

-- The caller links their channel on a platform from their own proof: the
-- Twitch login of their Twitch identity, or the YouTube/Kick channel their
-- OAuth proof named in the last ten minutes.
create function public.link_channel(p_platform text)
returns public.creator_profiles
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  proved text;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  if p_platform = 'twitch' then
    proved := app_private.twitch_login(caller);
    if proved is null then
      raise exception using message = 'error-no-twitch-identity', errcode = 'P0001';
    end if;
  elsif p_platform in ('youtube', 'kick') then
    select ci.channel into proved
    from app_private.channel_identities ci
    where ci.user_id = caller and ci.platform = p_platform
      and ci.verified_at > now() - app_private.channel_proof_ttl();
    if proved is null then
      raise exception using message = 'error-channel-not-verified', errcode = 'P0001';
    end if;
  else
    raise exception using message = 'error-invalid-platform', errcode = 'P0001';
  end if;
  return app_private.set_channel(caller, p_platform, proved);
end;
$$;
revoke all on function public.link_channel(text) from public, anon, authenticated;
grant execute on function public.link_channel(text) to authenticated;
