-- supabase/schemas/realtime.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Realtime: who may receive a topic, the marks the broadcaster reads, its lease, what a live update carries.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

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
    and (select app_private.has_assurance())
    and realtime.messages.topic = (select realtime.topic())
    and realtime.messages.extension = 'broadcast'
  );

-- Realtime: who may receive broadcasts on a session's topic.
--
-- session_updates_{sessionId} carries {updatedKeys, sessionData} for the
-- session page and the overlay. Anyone who may see the session may receive
-- on it, visitors (anon) included: the policy asks public.sessions as the
-- joining role, so the sessions table's own SELECT policy decides, and a
-- topic naming no visible session (or no session at all) is refused.
-- Evaluated by Supabase Realtime, and by the local relay the same way, with
-- the topic being joined in realtime.topic() (Realtime.Tenants.Authorization).
-- Only broadcast; no insert policy: broadcasts come from definer-rights code
-- through realtime.send().
create policy "Visitors receive broadcasts on a session they may see"
  on realtime.messages for select to anon, authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and realtime.messages.topic = (select realtime.topic())
    and (select realtime.topic()) ~ '^session_updates_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    and exists (
      select 1 from public.sessions s
      where s.id = (
        select case
          when realtime.topic() ~ '^session_updates_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          then substr(realtime.topic(), length('session_updates_') + 1)::uuid
        end
      )
    )
  );

-- Realtime: what changed, recorded where the change commits.
--
-- A money transaction (a dare written, a boost, a vote, a state change, a
-- resolution, a purchase, a refund) appends one row per touched topic here,
-- in its own transaction, so a mark exists exactly when the change
-- committed: `session_updates_{sessionId}` for a session's dares and state,
-- `wallets_{userId}` for a wallet's balance. No NOTIFY per boost and no
-- shared row to lock: an append with a sequence value. The app's
-- broadcaster (app/modules/realtime/broadcaster.server.ts) reads the marks
-- past its cursor a few times a second, coalesces them per topic and
-- publishes one complete update per topic and batch: to the local relay's
-- subscribers, or through realtime.send on Supabase. Every app instance
-- reads the same marks, so a change made through one instance reaches the
-- subscribers of all. Marks older than a minute are deleted.
--
-- Private: the API roles get nothing (deny by default); the trigger
-- functions run as their owner.
create table app_private.realtime_marks (
  id bigint generated always as identity primary key,
  topic text not null,
  marked_at timestamptz not null default now(),
  -- The dare a mark is about (null: the session itself), and whether it was
  -- just written (its description goes out once): docs/decisions/045-live-update-format.md.
  dare_id uuid,
  dare_created boolean not null default false
);
create index realtime_marks_marked_at_idx on app_private.realtime_marks (marked_at);
revoke all on table app_private.realtime_marks from public, anon, authenticated;

-- Dares updated (state changes, resolutions, an author gone): one mark each.
-- A held dare approved is new to the page (its description goes out); one
-- still held is not marked (nobody on the topic may see it).
create function app_private.mark_sessions_of_dares()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic, dare_id, dare_created)
  select 'session_updates_' || d.session_id, d.id, o.status = 'held'
  from changed d join before o on o.id = d.id
  where d.status <> 'held';
  return null;
end;
$$;
revoke all on function app_private.mark_sessions_of_dares() from public, anon, authenticated;

-- Boosts and votes: one mark per dare they touched (a held dare's reward: none).
create function app_private.mark_sessions_of_dare_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic, dare_id)
  select 'session_updates_' || d.session_id, d.id
  from (select distinct c.dare_id from changed c) c
  join public.dares d on d.id = c.dare_id
  where d.status <> 'held';
  return null;
end;
$$;
revoke all on function app_private.mark_sessions_of_dare_rows() from public, anon, authenticated;

-- A session stopped: its page says so at once.
create function app_private.mark_sessions()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic) select 'session_updates_' || c.id from changed c;
  return null;
end;
$$;
revoke all on function app_private.mark_sessions() from public, anon, authenticated;

-- A wallet's balance changed: its owner's header shows it.
create function app_private.mark_wallets()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic)
  select distinct 'wallets_' || n.user_id
  from changed n join before o on o.id = n.id
  where n.kind = 'wallet' and n.balance <> o.balance;
  return null;
end;
$$;
revoke all on function app_private.mark_wallets() from public, anon, authenticated;

create trigger dares_mark_update after update on public.dares
  referencing old table as before new table as changed for each statement execute function app_private.mark_sessions_of_dares();

create trigger boosts_mark_insert after insert on public.boosts
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_dare_rows();

create trigger votes_mark_insert after insert on public.votes
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_dare_rows();

create trigger votes_mark_update after update on public.votes
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_dare_rows();

create trigger sessions_mark_update after update on public.sessions
  referencing new table as changed for each statement execute function app_private.mark_sessions();

create trigger accounts_mark_update after update on ledger.accounts
  referencing old table as before new table as changed for each statement execute function app_private.mark_wallets();

create table app_private.broadcaster_lease (
  only_row boolean primary key default true constraint broadcaster_lease_one_row check (only_row),
  holder uuid not null,
  expires_at timestamptz not null
);
revoke all on table app_private.broadcaster_lease from public, anon, authenticated;

-- Takes or renews the lease for p_seconds; true when p_holder holds it.
create function app_private.hold_broadcaster_lease(p_holder uuid, p_seconds integer)
returns boolean
language plpgsql
volatile
security definer
set search_path = ''
as $$
begin
  insert into app_private.broadcaster_lease as l (holder, expires_at)
  values (p_holder, clock_timestamp() + make_interval(secs => p_seconds))
  on conflict (only_row) do update set holder = excluded.holder, expires_at = excluded.expires_at
  where l.holder = excluded.holder or l.expires_at < clock_timestamp();
  return found;
end;
$$;
revoke all on function app_private.hold_broadcaster_lease(uuid, integer) from public, anon, authenticated, service_role;

create function app_private.release_broadcaster_lease(p_holder uuid)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  delete from app_private.broadcaster_lease where holder = p_holder;
$$;
revoke all on function app_private.release_broadcaster_lease(uuid) from public, anon, authenticated, service_role;

-- Dares written: one mark each, saying so (a held one: none).
create function app_private.mark_sessions_of_new_dares()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic, dare_id, dare_created)
  select 'session_updates_' || d.session_id, d.id, true from changed d where d.status <> 'held';
  return null;
end;
$$;
revoke all on function app_private.mark_sessions_of_new_dares() from public, anon, authenticated;

create trigger dares_mark_insert after insert on public.dares
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_new_dares();

-- The dares of a session as a visitor reads them, those asked for (null:
-- all; a dare no longer there, or not shown, is missing from the answer),
-- with the held dares p_reader may see (their own, their session's; an
-- operator all: docs/product.md §13). Live updates ask without a reader, so
-- a held or removed dare never goes out on a session's topic: what a live
-- update says of each, and what public.session_dares and public.session_dare
-- show with the reader's own boost and vote. Due votes are not resolved here
-- (the sweeper does, and marks them; session_dares does first).
create function app_private.live_dares(p_session_id uuid, p_dare_ids uuid[], p_reader uuid default null)
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
      else (select coalesce(sum(b.amount), 0) from public.boosts b where b.dare_id = d.id and b.refunded_at is null)
    end::bigint,
    d.author_id, p.username,
    (select count(distinct b.booster_id)::integer from public.boosts b where b.dare_id = d.id and b.refunded_at is null),
    (select count(*)::integer from public.votes v where v.dare_id = d.id and v.vote),
    (select count(*)::integer from public.votes v where v.dare_id = d.id and not v.vote),
    d.voting_ends_at, d.created_at
  from public.dares d
  left join ledger.accounts a on a.kind = 'pot' and a.dare_id = d.id
  left join public.profiles p on p.id = d.author_id
  where d.session_id = p_session_id and (p_dare_ids is null or d.id = any (p_dare_ids))
    and (
      d.status not in ('held', 'removed')
      or (d.status = 'held' and p_reader is not null and (
        d.author_id = p_reader
        or exists (select 1 from public.sessions s where s.id = d.session_id and s.creator_id = p_reader)
        or exists (select 1 from app_private.operators o where o.user_id = p_reader)
      ))
    );
$$;
revoke all on function app_private.live_dares(uuid, uuid[], uuid) from public, anon, authenticated;

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
    (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid()) and b.refunded_at is null and (select app_private.has_assurance())),
    (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()) and (select app_private.has_assurance()))
  from public.dares d
  cross join lateral app_private.live_dares(d.session_id, array[d.id],
    case when (select app_private.has_assurance()) then (select auth.uid()) end) l
  where d.id = p_dare_id;
$$;
revoke all on function public.session_dare(uuid) from public, anon;
grant execute on function public.session_dare(uuid) to authenticated;
