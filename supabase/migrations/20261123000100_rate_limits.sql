-- Rate-limit counters for the Supabase platform's account routes
-- (app/platform/supabase/account-service.server.ts), shared by every app
-- instance: sign-in, sign-up, reset, resend and the rest count per address
-- and per IP here, as the local platform counts in
-- better_auth.app_rate_limit (supabase/local-shim/150_better_auth.sql).
--
-- Keys are HMACs of "scope:address" or "scope:ip" under a server secret,
-- never the address itself. Only the app's server connection (the database
-- owner) reads and writes them: the schema is not exposed through the Data
-- API, and the API roles get nothing.

create schema if not exists app_private;
revoke all on schema app_private from public, anon, authenticated;

create table app_private.rate_limits (
  key text primary key,
  window_started_at timestamptz not null,
  hits integer not null
);

revoke all on table app_private.rate_limits from public, anon, authenticated;
