-- One lock order for everything that settles dares, found by the money chaos
-- run (npm run chaos:money, 1,000,000 operations at 32 connections): no coin
-- was ever lost, but 11 calls ended in a deadlock and 4 dares failed on a
-- foreign key, all while an account was being deleted or a session stopped.
--
-- The order, for every transaction that touches these rows:
--   1. the acting account's auth.users row (a deletion holds it exclusively
--      from before its trigger runs; a participant's call holds it in key
--      share mode, see assert_participant);
--   2. sessions;
--   3. dares, in id order;
--   4. wallets, in id order (every refund, and the deleted user's own
--      wallet at its place in that order);
--   5. the system accounts (forfeit), last.
-- What broke it before: a refund to a deleted booster moved coins into the
-- forfeit account in the middle of the wallet order; a deletion locked its
-- user's dares before that user's live session, which stop_active_session
-- locks first; the deleted user's wallet was forfeited after the others'
-- refunds, out of id order; and a participant's call did not hold their
-- account, so a deletion could commit between the call's checks and its
-- insert (dares_author_id_fkey).

-- A participant's call (create_dare, boost_dare, vote_for_dare) holds the
-- caller's account row until it commits: a deletion under way finishes first
-- and the call then finds no account; a deletion that comes later waits and
-- then settles what the call wrote. Key share conflicts with nothing but a
-- deletion or a change of the id. Volatile now: it locks.
create or replace function app_private.assert_participant()
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  perform 1 from auth.users u where u.id = caller for key share;
  if not found then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  if not exists (select 1 from public.profiles p where p.id = caller)
    or not exists (
      select 1 from public.consents c
      where c.user_id = caller
        and c.kind = 'terms_of_service'
        and c.version = app_private.current_document_version('terms_of_service')
    )
  then
    raise exception using message = 'error-account-incomplete', errcode = 'P0001';
  end if;
  return caller;
end;
$$;

-- Every boost of the dares back to its booster (one transfer per booster and
-- dare) in booster order, each booster's wallet locked first; then, once no
-- wallet is left to lock, the boosts of boosters whose account is gone to the
-- forfeit account, which every refund shares.
create or replace function app_private.refund_dares(p_dare_ids uuid[])
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  owed record;
  gone_dares uuid[] := '{}';
  gone_boosters uuid[] := '{}';
  gone_amounts bigint[] := '{}';
begin
  for owed in
    select b.dare_id, b.booster_id, sum(b.amount)::bigint as amount
    from public.boosts b
    where b.dare_id = any (p_dare_ids)
    group by b.booster_id, b.dare_id
    order by b.booster_id, b.dare_id
  loop
    -- Locked, so an account being deleted meanwhile is either still there
    -- (its deletion waits) or gone (the coins go to the forfeit account).
    if exists (select 1 from public.wallets w where w.id = owed.booster_id for update) then
      perform ledger.transfer(ledger.pot_account(owed.dare_id), ledger.wallet_account(owed.booster_id), owed.amount,
        'refund', owed.dare_id::text, 'refund:' || owed.dare_id::text || ':' || owed.booster_id::text);
    else
      gone_dares := gone_dares || owed.dare_id;
      gone_boosters := gone_boosters || owed.booster_id;
      gone_amounts := gone_amounts || owed.amount;
    end if;
  end loop;
  for i in 1 .. coalesce(array_length(gone_dares, 1), 0) loop
    perform ledger.transfer(ledger.pot_account(gone_dares[i]), ledger.system_account('forfeit'), gone_amounts[i],
      'forfeit', gone_dares[i]::text, 'refund:' || gone_dares[i]::text || ':' || gone_boosters[i]::text);
  end loop;
end;
$$;

-- Before a user's auth.users row goes (the row is already held): their live
-- session, then the running dares of their sessions and those they wrote (the
-- cascade sets their author to null), then the wallets the refunds credit
-- together with their own (forfeited next, in before_user_delete), each group
-- in id order. Their sessions' dares end at once and are refunded; their own
-- boosts on other creators' dares stay in those pots and are settled when the
-- dare is (a refund then goes to the forfeit account).
create or replace function app_private.stop_sessions_of_deleted_user(p_user_id uuid)
returns void
language plpgsql
set search_path = ''
as $$
declare
  settled uuid[];
begin
  perform 1 from public.sessions s
  where s.creator_id = p_user_id and s.status = 'active'
  order by s.id
  for update;
  perform 1 from public.dares d
  join public.sessions s on s.id = d.session_id
  where (s.creator_id = p_user_id or d.author_id = p_user_id) and d.status in ('open', 'accepted', 'voting')
  order by d.id
  for update of d;
  update public.sessions s set status = 'ended', ended_at = greatest(now(), s.created_at)
  where s.creator_id = p_user_id and s.status = 'active';
  with closed as (
    update public.dares d
    set status = case when d.status = 'voting' then 'failed' else 'expired' end, resolved_at = now()
    from public.sessions s
    where s.id = d.session_id and s.creator_id = p_user_id and d.status in ('open', 'accepted', 'voting')
    returning d.id
  )
  select coalesce(array_agg(closed.id), '{}') into settled from closed;
  perform 1 from public.wallets w
  where w.id = p_user_id or w.id in (select b.booster_id from public.boosts b where b.dare_id = any (settled))
  order by w.id
  for update;
  perform app_private.refund_dares(settled);
end;
$$;

revoke all on function app_private.assert_participant() from public, anon, authenticated, service_role;
revoke all on function app_private.refund_dares(uuid[]) from public, anon, authenticated, service_role;
revoke all on function app_private.stop_sessions_of_deleted_user(uuid) from public, anon, authenticated, service_role;
