-- Every request that moves money carries an idempotency key (docs/product.md §8.5):
-- the creator's reject_dare and stop_active_session refund boosts, so they
-- take one too. The same key sent again (a double click, a resubmitted form,
-- a retry after a 502) returns the first result and moves nothing; a key
-- used before by someone else, or for another dare, is refused. Their
-- refunds were already keyed per dare and booster, so nothing was ever paid
-- twice; what the key adds is the first result instead of an error
-- (error-dare-not-rejectable, error-no-active-session) for a retry of a call
-- that succeeded. Without a key both behave as before.
--
-- The keys are kept out of reach of the Data API, and so, from now on, is
-- the creating request's key of a dare: read by anyone, it named the form
-- key of its author's page, which another user could take first for a boost
-- (error-idempotency-key-reused for the author).

create table app_private.call_keys (
  idempotency_key text primary key
    constraint call_keys_format check (idempotency_key ~ '^[!-~]{8,200}$'),
  caller uuid not null references auth.users (id) on delete cascade,
  -- The dare rejected, the session stopped.
  subject uuid not null,
  created_at timestamptz not null default now()
);
revoke all on table app_private.call_keys from public, anon, authenticated;

-- The key of a creator's call, checked and held: null when the call has none
-- (or it is the first with it), else the subject of the first call, which
-- must be this caller's on this subject. The lock makes a second call with
-- the same key wait for the first to commit.
create function app_private.replayed_call(p_kind text, p_key text, p_caller uuid, p_subject uuid)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  earlier app_private.call_keys;
begin
  if p_key is null then
    return null;
  end if;
  if p_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  perform pg_advisory_xact_lock(hashtext('app_private.call_keys'), hashtext(p_kind || ':' || p_key));
  select * into earlier from app_private.call_keys k where k.idempotency_key = p_kind || ':' || p_key;
  if not found then
    return null;
  end if;
  if earlier.caller is distinct from p_caller or (p_subject is not null and earlier.subject <> p_subject) then
    raise exception using message = 'error-idempotency-key-reused', errcode = 'P0001';
  end if;
  return earlier.subject;
end;
$$;

create function app_private.record_call(p_kind text, p_key text, p_caller uuid, p_subject uuid)
returns void
language sql
volatile
security definer
set search_path = ''
as $$
  insert into app_private.call_keys (idempotency_key, caller, subject)
  select p_kind || ':' || p_key, p_caller, p_subject
  where p_key is not null;
$$;

revoke all on function app_private.replayed_call(text, text, uuid, uuid) from public, anon, authenticated, service_role;
revoke all on function app_private.record_call(text, text, uuid, uuid) from public, anon, authenticated, service_role;

drop function public.reject_dare(uuid);

create function public.reject_dare(p_dare_id uuid, p_idempotency_key text default null)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  dare public.dares;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  if app_private.replayed_call('reject', p_idempotency_key, caller, p_dare_id) is not null then
    select * into dare from public.dares d where d.id = p_dare_id;
    return dare;
  end if;
  dare := app_private.dare_for_creator(p_dare_id);
  if dare.status not in ('open', 'accepted') then
    raise exception using message = 'error-dare-not-rejectable', errcode = 'P0001';
  end if;
  perform app_private.close_dare(p_dare_id, 'rejected');
  perform app_private.record_call('reject', p_idempotency_key, caller, p_dare_id);
  select * into dare from public.dares d where d.id = p_dare_id;
  return dare;
end;
$$;

revoke all on function public.reject_dare(uuid, text) from public, anon, authenticated;
grant execute on function public.reject_dare(uuid, text) to authenticated;

drop function public.stop_active_session();

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

revoke all on function public.stop_active_session(text) from public, anon, authenticated;
grant execute on function public.stop_active_session(text) to authenticated;

-- A dare's columns for the Data API, all but the creating request's key.
revoke select on table public.dares from anon, authenticated;
grant select (id, session_id, author_id, description, reward, status, created_at, accepted_at, voting_ends_at, resolved_at)
  on table public.dares to anon, authenticated;
