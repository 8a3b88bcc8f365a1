-- Session revocations, as marks: a user banned, unbanned, deleted or given
-- another e-mail address appends a mark on topic `auth_sessions_{userId}` to
-- app_private.realtime_marks in the transaction that does it. Every app
-- instance reads the marks a few times a second (the realtime broadcaster)
-- and forgets the sessions of that user it had cached, so the next request
-- reads them from the database again (docs/decisions/044-session-cache.md).
--
-- A ban is auth.users.banned_until in the future (Supabase Auth's column,
-- which its admin API sets): the local platform then refuses every session of
-- the user until that time; on Supabase, Supabase Auth refuses to refresh
-- them. What Better Auth keeps (sessions signed out, passwords reset, second
-- factors, session assurance) is marked by the local platform's own triggers,
-- on its own tables (supabase/local-shim/170_session_revocations.sql): those
-- tables exist only there.
--
-- Constraint triggers deferred to the commit: the mark's id is taken as the
-- change commits, not earlier in a long transaction (see the shim file).
-- The function runs as its owner (the migration role, owner of the marks),
-- since Supabase Auth's own role makes these changes on Supabase.

create function app_private.mark_auth_user()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  insert into app_private.realtime_marks (topic) values ('auth_sessions_' || old.id);
  return null;
end;
$$;

revoke all on function app_private.mark_auth_user() from public, anon, authenticated;

create constraint trigger auth_user_sessions_changed
  after update on auth.users
  deferrable initially deferred
  for each row
  when (
    new.banned_until is distinct from old.banned_until
    or new.email is distinct from old.email
    or new.deleted_at is distinct from old.deleted_at
  )
  execute function app_private.mark_auth_user();

create constraint trigger auth_user_deleted
  after delete on auth.users
  deferrable initially deferred
  for each row execute function app_private.mark_auth_user();
