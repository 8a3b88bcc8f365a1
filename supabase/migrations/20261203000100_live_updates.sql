-- Live updates carry what changed (docs/decisions/045-live-update-format.md).
--
-- A session's update used to carry its whole dare list: tens of kilobytes to
-- every subscriber of a large session, up to five times a second. Now each
-- mark says which dare it is about (`dare_id`; null: the session itself) and
-- whether the dare was just written (`dare_created`: its description goes out
-- once), and the broadcaster reads only the marked dares
-- (app_private.live_dares) and the session's totals (app_private.live_session).
-- Both read as a visitor would: nobody's own boost or vote. Private, like the
-- marks: the API roles get nothing.

alter table app_private.realtime_marks
  add column dare_id uuid,
  add column dare_created boolean not null default false;

-- Dares written: one mark each, saying so.
create or replace function app_private.mark_sessions_of_new_dares()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic, dare_id, dare_created)
  select 'session_updates_' || d.session_id, d.id, true from changed d;
  return null;
end;
$$;

-- Dares updated (state changes, resolutions, an author gone): one mark each.
create or replace function app_private.mark_sessions_of_dares()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic, dare_id)
  select 'session_updates_' || d.session_id, d.id from changed d;
  return null;
end;
$$;

-- Boosts and votes: one mark per dare they touched.
create or replace function app_private.mark_sessions_of_dare_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic, dare_id)
  select 'session_updates_' || d.session_id, d.id
  from (select distinct c.dare_id from changed c) c
  join public.dares d on d.id = c.dare_id;
  return null;
end;
$$;

revoke all on function app_private.mark_sessions_of_new_dares() from public, anon, authenticated;

drop trigger dares_mark_insert on public.dares;
create trigger dares_mark_insert after insert on public.dares
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_new_dares();

-- The dares of a session as a visitor reads them, those asked for (null:
-- all; a dare no longer there is missing from the answer): what a live
-- update says of each, and what public.session_dares and public.session_dare
-- show with the reader's own boost and vote. Due votes are not resolved here
-- (the sweeper does, and marks them; session_dares does first).
create function app_private.live_dares(p_session_id uuid, p_dare_ids uuid[])
returns table (
  id uuid,
  description text,
  reward bigint,
  status text,
  pot bigint,
  author_id uuid,
  author_username text,
  boosters integer,
  yes_votes integer,
  no_votes integer,
  voting_ends_at timestamptz,
  created_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select d.id, d.description, d.reward, d.status,
    case when d.status in ('open', 'accepted', 'voting') then coalesce(a.balance, 0)
      else (select coalesce(sum(b.amount), 0) from public.boosts b where b.dare_id = d.id)
    end::bigint,
    d.author_id, p.username,
    (select count(distinct b.booster_id)::integer from public.boosts b where b.dare_id = d.id),
    (select count(*)::integer from public.votes v where v.dare_id = d.id and v.vote),
    (select count(*)::integer from public.votes v where v.dare_id = d.id and not v.vote),
    d.voting_ends_at, d.created_at
  from public.dares d
  left join ledger.accounts a on a.kind = 'pot' and a.dare_id = d.id
  left join public.profiles p on p.id = d.author_id
  where d.session_id = p_session_id and (p_dare_ids is null or d.id = any (p_dare_ids));
$$;

-- A session's state and totals (as home's cards show them); no row when the
-- session is gone.
create function app_private.live_session(p_session_id uuid)
returns table (status text, dares integer, pot bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select s.status, t.dares, t.pot
  from public.sessions s cross join lateral public.session_totals(s.id) t
  where s.id = p_session_id;
$$;

revoke all on function app_private.live_dares(uuid, uuid[]) from public, anon, authenticated;

-- The session page's dares, now read through live_dares (one place says what
-- a dare shows): due votes resolved first, then every dare with the reader's
-- own boost and vote, running ones first, most coins first.
create or replace function public.session_dares(p_session_id uuid)
returns table (
  id uuid,
  description text,
  reward bigint,
  status text,
  pot bigint,
  author_id uuid,
  author_username text,
  boosters integer,
  yes_votes integer,
  no_votes integer,
  voting_ends_at timestamptz,
  created_at timestamptz,
  my_boost bigint,
  my_vote boolean
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  -- Due votes locked first, waiting (not skipping) where the sweeper or a
  -- last voter holds one: a vote being resolved elsewhere is then read
  -- resolved, not as a running vote past its end.
  perform 1 from public.dares d
  where d.session_id = p_session_id and d.status = 'voting' and d.voting_ends_at <= now()
  order by d.id
  for update;
  perform app_private.resolve_due_dares(p_session_id, 100);
  return query
    select l.*,
      (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid())),
      (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()))
    from app_private.live_dares(p_session_id, null) l
    order by (l.status in ('open', 'accepted', 'voting')) desc, l.pot desc, l.created_at, l.id;
end;
$$;
revoke all on function app_private.live_session(uuid) from public, anon, authenticated;

-- One dare as its reader sees it, their own boost and vote included: what a
-- boost, a vote or a new dare answers a page that applies live updates (the
-- rest of the page comes by them). The values of app_private.live_dares.
create function public.session_dare(p_dare_id uuid)
returns table (
  id uuid,
  description text,
  reward bigint,
  status text,
  pot bigint,
  author_id uuid,
  author_username text,
  boosters integer,
  yes_votes integer,
  no_votes integer,
  voting_ends_at timestamptz,
  created_at timestamptz,
  my_boost bigint,
  my_vote boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select l.*,
    (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid())),
    (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()))
  from public.dares d
  cross join lateral app_private.live_dares(d.session_id, array[d.id]) l
  where d.id = p_dare_id;
$$;

revoke all on function public.session_dare(uuid) from public, anon;
grant execute on function public.session_dare(uuid) to authenticated;
