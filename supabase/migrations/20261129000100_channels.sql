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

-- The Twitch button of "Linked channels" keeps its name; the rule is link_channel's.
create or replace function public.link_twitch_channel()
returns public.creator_profiles
language sql
volatile
security definer
set search_path = ''
as $$ select * from public.link_channel('twitch') $$;
