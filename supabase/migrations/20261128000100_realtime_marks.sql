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
  marked_at timestamptz not null default now()
);
create index realtime_marks_marked_at_idx on app_private.realtime_marks (marked_at);
revoke all on table app_private.realtime_marks from public, anon, authenticated;

-- Dares inserted or updated (state changes, resolutions): their sessions.
create function app_private.mark_sessions_of_dares()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic)
  select distinct 'session_updates_' || d.session_id from changed d;
  return null;
end;
$$;

-- Boosts and votes: the sessions of their dares.
create function app_private.mark_sessions_of_dare_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic)
  select distinct 'session_updates_' || d.session_id
  from (select distinct c.dare_id from changed c) c
  join public.dares d on d.id = c.dare_id;
  return null;
end;
$$;

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

revoke all on function app_private.mark_sessions_of_dares() from public, anon, authenticated;
revoke all on function app_private.mark_sessions_of_dare_rows() from public, anon, authenticated;
revoke all on function app_private.mark_sessions() from public, anon, authenticated;
revoke all on function app_private.mark_wallets() from public, anon, authenticated;

create trigger dares_mark_insert after insert on public.dares
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_dares();
create trigger dares_mark_update after update on public.dares
  referencing new table as changed for each statement execute function app_private.mark_sessions_of_dares();
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
