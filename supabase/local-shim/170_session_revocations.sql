-- Local platform only: a mark in app_private.realtime_marks on topic
-- `auth_sessions_{userId}` whenever something Better Auth keeps could end or
-- lessen a session of that user, in the transaction that does it. Every app
-- instance reads the marks (app/modules/realtime/broadcaster.server.ts) and
-- its in-process session cache (app/modules/account/backends/better-auth/session-cache.server.ts)
-- forgets the user's sessions; see docs/decisions/044-session-cache.md.
--
--  * a session row deleted: sign-out, a sign-in replacing the browser's
--    previous session, every session on a password reset, account deletion
--    (the cascade from better_auth."user"), an operator's delete;
--  * a session row changed in what the app reads from it: its token, its
--    user, its assurance level (aal), an expiry moved earlier (an expiry
--    moved later, Better Auth's daily refresh, is not a mark: a cached entry
--    keeps the earlier one and is read again when it passes);
--  * the user's e-mail or second factor changed (the viewer carries both);
--  * the password of the user's password account changed (every session of
--    the user is read again).
--
-- Bans and deletions of auth.users rows are marked by the migration
-- 20261203000200_session_revocations.sql (auth.users exists on both platforms).
--
-- The triggers are constraint triggers deferred to the commit: the mark's id
-- is taken as the transaction commits, so it is almost never below the
-- broadcaster's cursor by the time it becomes visible (a mark taken early in
-- a long transaction could commit after the cursor passed it; the
-- broadcaster looks for such marks for 10 s only). The mark's transaction
-- rolls back with the change, so there is no mark without a change.
--
-- The functions run as their owner (the connection that applies this file,
-- a member of app_owner, which owns app_private.realtime_marks). The table
-- they write is created by a migration, which runs after this file: PL/pgSQL
-- resolves it when a trigger fires, by then it exists.
--
-- Idempotent: runs on every migrate().

create or replace function better_auth.mark_auth_sessions()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  -- One mark per changed row, for the user whose sessions it concerns.
  if tg_table_name = 'user' then
    insert into app_private.realtime_marks (topic) values ('auth_sessions_' || old."id");
  else
    insert into app_private.realtime_marks (topic) values ('auth_sessions_' || old."userId");
    -- A row moved to another user (Better Auth never does): that user too.
    if tg_op = 'UPDATE' then
      if new."userId" is distinct from old."userId" then
        insert into app_private.realtime_marks (topic) values ('auth_sessions_' || new."userId");
      end if;
    end if;
  end if;
  return null;
end;
$$;

revoke all on function better_auth.mark_auth_sessions() from public, anon, authenticated, service_role;

drop trigger if exists session_revoked on better_auth."session";
create constraint trigger session_revoked
  after delete on better_auth."session"
  deferrable initially deferred
  for each row execute function better_auth.mark_auth_sessions();

drop trigger if exists session_lessened on better_auth."session";
create constraint trigger session_lessened
  after update on better_auth."session"
  deferrable initially deferred
  for each row
  when (
    new."token" is distinct from old."token"
    or new."userId" is distinct from old."userId"
    or new."aal" is distinct from old."aal"
    or new."expiresAt" < old."expiresAt"
  )
  execute function better_auth.mark_auth_sessions();

drop trigger if exists user_viewer_changed on better_auth."user";
create constraint trigger user_viewer_changed
  after update on better_auth."user"
  deferrable initially deferred
  for each row
  when (
    new."email" is distinct from old."email"
    or new."twoFactorEnabled" is distinct from old."twoFactorEnabled"
  )
  execute function better_auth.mark_auth_sessions();

drop trigger if exists password_changed on better_auth."account";
create constraint trigger password_changed
  after update on better_auth."account"
  deferrable initially deferred
  for each row
  when (new."password" is distinct from old."password" or new."userId" is distinct from old."userId")
  execute function better_auth.mark_auth_sessions();
