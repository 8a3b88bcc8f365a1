-- Realtime: what changed, recorded where the change commits.
--
-- A money transaction (a dare written, a boost, a vote, a state change or a
-- resolution) appends one row per touched session here, in its own
-- transaction, so a mark exists exactly when the change committed. No
-- NOTIFY per boost and no shared row to lock: an append with a sequence
-- value. The app's broadcaster (app/modules/realtime/session-updates.server.ts)
-- reads the marks past its cursor a few times a second, coalesces them per
-- session and publishes one complete update per session and batch: to the
-- local relay's subscribers, or through realtime.send on Supabase. Every app
-- instance reads the same marks, so a change made through one instance
-- reaches the subscribers of all. Marks older than a minute are deleted.
--
-- Private: the API roles get nothing (deny by default); the trigger
-- functions run as their owner.

create table app_private.session_marks (
  id bigint generated always as identity primary key,
  session_id uuid not null,
  marked_at timestamptz not null default now()
);
create index session_marks_marked_at_idx on app_private.session_marks (marked_at);
revoke all on table app_private.session_marks from public, anon, authenticated;

create function app_private.mark_sessions_of_dares()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.session_marks (session_id)
  select distinct d.session_id from changed d;
  return null;
end;
$$;

create function app_private.mark_sessions_of_dare_rows()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.session_marks (session_id)
  select distinct d.session_id
  from (select distinct c.dare_id from changed c) c
  join public.dares d on d.id = c.dare_id;
  return null;
end;
$$;

revoke all on function app_private.mark_sessions_of_dares() from public, anon, authenticated;
revoke all on function app_private.mark_sessions_of_dare_rows() from public, anon, authenticated;

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

create function app_private.mark_sessions()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.session_marks (session_id) select c.id from changed c;
  return null;
end;
$$;
revoke all on function app_private.mark_sessions() from public, anon, authenticated;

-- A session stopped (its page says so at once).
create trigger sessions_mark_update after update on public.sessions
  referencing new table as changed for each statement execute function app_private.mark_sessions();
