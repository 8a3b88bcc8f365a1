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
language sql
stable
security definer
set search_path = ''
as $$
  select d.version
  from public.published_documents d
  where d.kind = p_kind
  order by d.published_at desc, d.version desc
  limit 1;
$$;

revoke all on function app_private.current_document_version(text) from public, anon, authenticated;

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

-- The caller links the Twitch channel of their Twitch identity (the settings'
-- "Linked channels"), e.g. after unlinking it or once its login changed.
create function public.link_twitch_channel()
returns public.creator_profiles
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  login text;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  login := app_private.twitch_login(caller);
  if login is null then
    raise exception using message = 'error-no-twitch-identity', errcode = 'P0001';
  end if;
  return app_private.set_channel(caller, 'twitch', login);
end;
$$;

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

-- ---------------------------------------------------------------------------
-- Starting and stopping a session
-- ---------------------------------------------------------------------------

-- The start-session settings (docs/product.md §5.2), with the upper limits of
-- ADR 018. Checked in this order, so the first thing wrong is the one named:
-- the caller, their second factor, being a creator, the settings, the
-- channel, the creator agreement, then one live session per creator and per
-- channel. The session is stored on the channel as the creator linked it (the
-- argument only has to name it, in any case).
create function public.create_session(
  p_title text,
  p_min_boost integer,
  p_max_dares_per_user integer,
  p_max_free_dares_per_user integer,
  p_platform text,
  p_channel text,
  p_seconds_to_vote integer
)
returns public.sessions
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  profile public.creator_profiles;
  channel text;
  title text := btrim(p_title);
  created public.sessions;
  violated text;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();

  -- Locks the creator profile: two starts of one creator (a double click, a
  -- retried request, two tabs) run one after the other, and the second sees
  -- the first's session below. Unlinking waits for the same lock.
  select * into profile from public.creator_profiles where id = caller for update;
  if not found
    or (profile.twitch_channel is null and profile.youtube_channel is null and profile.kick_channel is null)
  then
    raise exception using message = 'error-not-a-creator', errcode = 'P0001';
  end if;

  if title is null or title = '' then
    raise exception using message = 'error-title-required', errcode = 'P0001';
  end if;
  if char_length(title) > 140 then
    raise exception using message = 'error-title-too-long', errcode = 'P0001';
  end if;
  if p_min_boost is null or p_min_boost < 50 or p_min_boost > 100000 or p_min_boost % 10 <> 0 then
    raise exception using message = 'error-invalid-min-boost', errcode = 'P0001';
  end if;
  if p_max_dares_per_user is null or p_max_dares_per_user < 1 or p_max_dares_per_user > 100 then
    raise exception using message = 'error-invalid-max-dares-per-user', errcode = 'P0001';
  end if;
  if p_max_free_dares_per_user is null or p_max_free_dares_per_user < 0
    or p_max_free_dares_per_user > p_max_dares_per_user
  then
    raise exception using message = 'error-invalid-max-free-dares-per-user', errcode = 'P0001';
  end if;
  if p_seconds_to_vote is null or p_seconds_to_vote < 30 or p_seconds_to_vote > 3600 or p_seconds_to_vote % 5 <> 0 then
    raise exception using message = 'error-invalid-voting-duration', errcode = 'P0001';
  end if;
  if p_platform is null or p_platform not in ('twitch', 'youtube', 'kick') then
    raise exception using message = 'error-invalid-platform', errcode = 'P0001';
  end if;

  channel := app_private.linked_channel(profile, p_platform);
  if channel is null or p_channel is null or lower(p_channel) <> lower(channel) then
    raise exception using message = 'error-no-channel-on-platform', errcode = 'P0001';
  end if;

  if not exists (
    select 1 from public.consents c
    where c.user_id = caller
      and c.kind = 'creator_agreement'
      and c.version = app_private.current_document_version('creator_agreement')
  ) then
    raise exception using message = 'error-creator-agreement-required', errcode = 'P0001';
  end if;

  if exists (select 1 from public.sessions s where s.creator_id = caller and s.status = 'active') then
    raise exception using message = 'error-session-already-active', errcode = 'P0001';
  end if;

  -- The unique indexes decide races the lock above does not cover.
  begin
    insert into public.sessions (
      creator_id, title, platform, channel,
      min_boost, max_dares_per_user, max_free_dares_per_user, voting_duration
    ) values (
      caller, title, p_platform, channel,
      p_min_boost, p_max_dares_per_user, p_max_free_dares_per_user, p_seconds_to_vote
    )
    returning * into created;
  exception when unique_violation then
    get stacked diagnostics violated = constraint_name;
    raise exception using
      message = case violated
        when 'sessions_one_active_per_creator' then 'error-session-already-active'
        else 'error-channel-already-live'
      end,
      errcode = 'P0001';
  end;
  return created;
end;
$$;

revoke all on function public.create_session(text, integer, integer, integer, text, text, integer) from public, anon, authenticated;
grant execute on function public.create_session(text, integer, integer, integer, text, text, integer) to authenticated;

-- What else a stopped session settles, in the stop's transaction. Nothing
-- yet: the dares migration replaces it (create or replace) to expire and
-- refund the session's open and accepted dares.
create function app_private.settle_stopped_session(p_session_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform p_session_id;
end;
$$;

revoke all on function app_private.settle_stopped_session(uuid) from public, anon, authenticated, service_role;

-- The caller stops their live session (status ended, ended_at now) and gets
-- it back, with what it held settled (app_private.settle_stopped_session).
create function public.stop_active_session()
returns public.sessions
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  stopped public.sessions;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();

  update public.sessions s set status = 'ended', ended_at = greatest(now(), s.created_at)
  where s.creator_id = caller and s.status = 'active'
  returning * into stopped;
  if not found then
    if not exists (select 1 from public.creator_profiles p where p.id = caller) then
      raise exception using message = 'error-not-a-creator', errcode = 'P0001';
    end if;
    raise exception using message = 'error-no-active-session', errcode = 'P0001';
  end if;
  perform app_private.settle_stopped_session(stopped.id);
  return stopped;
end;
$$;

revoke all on function public.stop_active_session() from public, anon, authenticated;
grant execute on function public.stop_active_session() to authenticated;
