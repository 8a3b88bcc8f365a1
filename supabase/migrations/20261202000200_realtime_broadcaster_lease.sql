-- One publisher of the live updates on Supabase. Every app instance reads the
-- same marks (app_private.realtime_marks); on the local platform each sends
-- them to its own relay's subscribers, but on Supabase all of them sent the
-- same update through realtime.send to the same subscribers: with n
-- instances, n copies, and n times the rate the broadcaster keeps to. Now the
-- instance that holds this lease publishes; the others follow the marks (for
-- their shared pages) and take over when the lease runs out (a stopped
-- instance gives it up at once).

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

create function app_private.release_broadcaster_lease(p_holder uuid)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  delete from app_private.broadcaster_lease where holder = p_holder;
$$;

revoke all on function app_private.hold_broadcaster_lease(uuid, integer) from public, anon, authenticated, service_role;
revoke all on function app_private.release_broadcaster_lease(uuid) from public, anon, authenticated, service_role;
