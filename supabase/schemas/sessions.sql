-- supabase/schemas/sessions.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Sessions: a creator's live sessions, starting and stopping them.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

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
    constraint sessions_min_boost_valid check (min_boost >= 50 and min_boost <= 100000 and min_boost % 10 = 0),
  max_dares_per_user integer not null default 5
    constraint sessions_max_dares_per_user_valid check (max_dares_per_user >= 1 and max_dares_per_user <= 100),
  max_free_dares_per_user integer not null default 1
    constraint sessions_max_free_dares_per_user_valid
    check (max_free_dares_per_user between 0 and max_dares_per_user),
  voting_duration integer not null default 180
    constraint sessions_voting_duration_valid check (voting_duration >= 30 and voting_duration <= 3600 and voting_duration % 5 = 0),
  created_at timestamptz not null default now(),
  ended_at timestamptz,
  -- Every new dare is held for the creator's review (public.set_hold_new_dares,
  -- docs/product.md §13).
  hold_new_dares boolean not null default false,
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
  perform app_private.assert_not_suspended(caller);
  -- A title is on home, the share card and the stream: no term of the
  -- built-in lists or of the creator's own (docs/product.md §13).
  if app_private.text_verdict(title, caller) <> 'allowed' then
    raise exception using message = 'error-title-not-allowed', errcode = 'P0001';
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

-- A stopping session (stop_active_session, a creator's deletion) expires and
-- refunds its open and accepted dares; dares in voting finish their vote.
create function app_private.settle_stopped_session(p_session_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  expired uuid[];
begin
  -- Every dare locked first, then the refunds: a boost locks its dare, then
  -- the booster's wallet, so locking dare after dare between refunds (which
  -- lock wallets) could deadlock with a boost under way. The refunds then go
  -- out in booster order across the dares (refund_dares).
  perform 1 from public.dares d
  where d.session_id = p_session_id and d.status in ('held', 'open', 'accepted')
  order by d.id
  for update;
  with closed as (
    update public.dares d set status = 'expired', resolved_at = now()
    where d.session_id = p_session_id and d.status in ('held', 'open', 'accepted')
    returning d.id
  )
  select coalesce(array_agg(closed.id), '{}') into expired from closed;
  perform app_private.refund_dares(expired);
end;
$$;
revoke all on function app_private.settle_stopped_session(uuid) from public, anon, authenticated, service_role;

create function public.stop_active_session(p_idempotency_key text default null)
returns public.sessions
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  stopped public.sessions;
  earlier uuid;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  earlier := app_private.replayed_call('stop', p_idempotency_key, caller, null);
  if earlier is not null then
    select * into stopped from public.sessions s where s.id = earlier;
    return stopped;
  end if;

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
  perform app_private.record_call('stop', p_idempotency_key, caller, stopped.id);
  return stopped;
end;
$$;

-- A session's recap for its creator (after it ends, and in their sessions
-- list): the coins it earned them (the payouts of its dares), and how many
-- of its dares were completed, failed, and refunded (rejected, expired,
-- removed). The top fans are public.session_top_boosters. No row for anyone
-- but the creator.
create function public.session_recap(p_session_id uuid)
returns table (earned bigint, completed integer, failed integer, refunded integer)
language sql
stable
security definer
set search_path = ''
as $$
  select
    coalesce((
      select sum(t.amount)
      from ledger.accounts a
      join ledger.transfers t on t.to_account = a.id and t.kind = 'payout'
      join public.dares d on d.id::text = t.reference and d.session_id = s.id
      where a.kind = 'wallet' and a.user_id = s.creator_id
    ), 0)::bigint,
    (select count(*)::integer from public.dares d where d.session_id = s.id and d.status = 'completed'),
    (select count(*)::integer from public.dares d where d.session_id = s.id and d.status = 'failed'),
    (select count(*)::integer from public.dares d where d.session_id = s.id and d.status in ('rejected', 'expired', 'removed'))
  from public.sessions s
  where s.id = p_session_id and s.creator_id = (select auth.uid()) and (select app_private.has_assurance());
$$;
revoke all on function public.session_recap(uuid) from public, anon, authenticated;
grant execute on function public.session_recap(uuid) to authenticated;
