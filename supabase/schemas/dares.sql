-- supabase/schemas/dares.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Dares: writing, boosting, accepting, rejecting, voting and resolving dares; refunds, payouts and the fee.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

-- Dares, the core loop (docs/product.md §6): create, boost, accept, reject,
-- start voting, vote, and the resolution of due votes, with escrow, refunds
-- and payouts.
--
-- Where the money goes
--  * A dare's coins sit in its pot (ledger.pot_account(dare id)); the pot's
--    balance is the dare's pot, read from the ledger, never cached here.
--  * create_dare takes the reward from the author's wallet as the dare's first
--    boost; boost_dare adds to the pot. Both go through ledger.transfer with an
--    idempotency key (prefixed per function so that no two calls share one).
--  * Completed (yes >= no, no votes included): the pot goes to the creator's
--    wallet less the platform fee (ledger.settings, default 0). Failed,
--    rejected or expired: every boost goes back to its booster; the boost of a
--    deleted account goes to the forfeit account (its wallet is gone).
--  * Boosters never win coins (docs/product.md §8.9).
--
-- Who may do what is checked here, not in the app: the caller comes from
-- auth.uid(), the two-factor assurance helper guards every write, and the
-- tables accept no write from the API roles.

-- ---------------------------------------------------------------------------
-- The platform fee (an operator setting the app writes at start-up)
-- ---------------------------------------------------------------------------
create table ledger.settings (
  id boolean primary key default true constraint settings_one_row check (id),
  -- Basis points of a completed dare's pot kept by the platform (100 = 1 %).
  fee_basis_points integer not null default 0
    constraint settings_fee_valid check (fee_basis_points between 0 and 10000),
  -- Payouts (docs/product.md §14; ledger.set_payout_settings in supabase/schemas/payouts.sql):
  -- days a creator's earnings are pending, the smallest payout, the payout
  -- above which an operator reviews it, the money a coin is worth (minor
  -- units of the currency, four decimals) and the platform's fee on a payout.
  payout_hold_days integer not null default 14
    constraint settings_payout_hold_valid check (payout_hold_days between 0 and 365),
  payout_min_coins bigint not null default 2000
    constraint settings_payout_min_valid check (payout_min_coins between 1 and 1000000000),
  payout_review_coins bigint not null default 20000
    constraint settings_payout_review_valid check (payout_review_coins between 0 and 1000000000),
  payout_cents_per_coin numeric(10, 4) not null default 0.7
    constraint settings_payout_rate_valid check (payout_cents_per_coin > 0 and payout_cents_per_coin <= 1000),
  payout_fee_basis_points integer not null default 0
    constraint settings_payout_fee_valid check (payout_fee_basis_points between 0 and 10000),
  payout_currency text not null default 'EUR'
    constraint settings_payout_currency_format check (payout_currency ~ '^[A-Z]{3}$')
);
revoke all on table ledger.settings from public, anon, authenticated, service_role;

insert into ledger.settings default values;

create function ledger.set_platform_fee(p_basis_points integer)
returns void
language sql
set search_path = ''
as $$
  update ledger.settings set fee_basis_points = p_basis_points;
$$;
revoke all on function ledger.set_platform_fee(integer) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Tables
-- ---------------------------------------------------------------------------
create table public.dares (
  id uuid primary key default gen_random_uuid(),
  session_id uuid not null references public.sessions (id) on delete cascade,
  -- Kept (as null) when the author deletes their account: the dare goes on.
  author_id uuid references auth.users (id) on delete set null,
  description text not null
    constraint dares_description_valid
    check (char_length(description) between 3 and 280 and description = btrim(description)
      and description !~ '[[:cntrl:]]'),
  reward bigint not null
    constraint dares_reward_valid check (reward >= 0 and reward % 10 = 0 and reward <= 1000000),
  status text not null default 'open'
    constraint dares_status_valid
    check (status in ('held', 'open', 'accepted', 'voting', 'completed', 'failed', 'rejected', 'expired', 'removed')),
  -- The creating request's key: a repeat returns this dare.
  idempotency_key text not null
    constraint dares_idempotency_key_format check (idempotency_key ~ '^[!-~]{8,200}$'),
  created_at timestamptz not null default now(),
  accepted_at timestamptz,
  -- The voting deadline is a row's value, so resolution survives restarts.
  voting_ends_at timestamptz,
  resolved_at timestamptz,
  constraint dares_voting_has_deadline check ((status = 'voting') <= (voting_ends_at is not null)),
  constraint dares_resolved_at_matches_status
    check ((status in ('completed', 'failed', 'rejected', 'expired')) <= (resolved_at is not null)
      and (resolved_at is not null) <= (status in ('completed', 'failed', 'rejected', 'expired', 'removed')))
);
create unique index dares_idempotency_key on public.dares (idempotency_key);
create index dares_session_idx on public.dares (session_id, created_at);
create index dares_author_session_idx on public.dares (author_id, session_id);

-- One vote at a time per session (docs/product.md §6.7: start voting needs no other dare in voting).
create unique index dares_one_vote_per_session on public.dares (session_id) where status = 'voting';

-- The sweeper's queue: due votes, oldest deadline first.
create index dares_due_votes_idx on public.dares (voting_ends_at) where status = 'voting';

-- ---------------------------------------------------------------------------
-- Row-level security: everyone reads the dares that are shown (a held dare
-- only its author, the session's creator and operators; a removed one only
-- operators: docs/product.md §13); users read their own boosts and votes;
-- nobody writes except through the functions below.
-- ---------------------------------------------------------------------------
alter table public.dares enable row level security;
create policy "Shown dares are public"
  on public.dares for select to anon
  using (status not in ('held', 'removed'));
create policy "Held dares are seen by their author, the creator and operators"
  on public.dares for select to authenticated
  using (
    status not in ('held', 'removed')
    or (status = 'held' and author_id = (select auth.uid()))
    or (status = 'held' and exists (
      select 1 from public.sessions s where s.id = session_id and s.creator_id = (select auth.uid())
    ))
    or (select app_private.is_operator())
  );
revoke all on table public.dares from anon, authenticated;
grant select on table public.dares to anon, authenticated;
grant all on table public.dares to service_role;

-- A dare's columns for the Data API, all but the creating request's key.
revoke select on table public.dares from anon, authenticated;
grant select (id, session_id, author_id, description, reward, status, created_at, accepted_at, voting_ends_at, resolved_at)
  on table public.dares to anon, authenticated;

create table public.boosts (
  id bigint generated always as identity primary key,
  dare_id uuid not null references public.dares (id) on delete cascade,
  -- No foreign key: a deleted booster's boost still has to be settled.
  booster_id uuid not null,
  amount bigint not null
    constraint boosts_amount_valid check (amount >= 10 and amount % 10 = 0 and amount <= 1000000),
  idempotency_key text not null
    constraint boosts_idempotency_key_format check (idempotency_key ~ '^[!-~]{8,200}$'),
  created_at timestamptz not null default now(),
  -- Given back on its own, while the dare runs on: its booster was banned
  -- by the creator (public.ban_viewer). Refunds and totals leave it out.
  refunded_at timestamptz
);
create unique index boosts_idempotency_key on public.boosts (idempotency_key);
create index boosts_dare_idx on public.boosts (dare_id, booster_id);
create index boosts_booster_idx on public.boosts (booster_id);
alter table public.boosts enable row level security;
-- A user's own boosts and votes, with the second factor proved if there is one.
create policy "Users read their own boosts"
  on public.boosts for select to authenticated
  using (booster_id = (select auth.uid()) and (select app_private.has_assurance()));
revoke all on table public.boosts from anon, authenticated;
grant select on table public.boosts to authenticated;
grant all on table public.boosts to service_role;

create table public.votes (
  dare_id uuid not null references public.dares (id) on delete cascade,
  voter_id uuid not null references auth.users (id) on delete cascade,
  -- true: done; false: not done.
  vote boolean not null,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (dare_id, voter_id)
);
create index votes_voter_idx on public.votes (voter_id);
alter table public.votes enable row level security;
create policy "Users read their own votes"
  on public.votes for select to authenticated
  using (voter_id = (select auth.uid()) and (select app_private.has_assurance()));
revoke all on table public.votes from anon, authenticated;
grant select on table public.votes to authenticated;
grant all on table public.votes to service_role;

-- ---------------------------------------------------------------------------
-- Helpers
-- ---------------------------------------------------------------------------

-- A participant's call (create_dare, boost_dare, vote_for_dare) holds the
-- caller's account row until it commits: a deletion under way finishes first
-- and the call then finds no account; a deletion that comes later waits and
-- then settles what the call wrote. Key share conflicts with nothing but a
-- deletion or a change of the id. Volatile now: it locks.
create function app_private.assert_participant()
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
  perform app_private.assert_not_suspended(caller);
  return caller;
end;
$$;

-- ---------------------------------------------------------------------------
-- Privileges
-- ---------------------------------------------------------------------------
revoke all on function app_private.assert_participant() from public, anon, authenticated, service_role;
revoke all on function app_private.assert_participant() from public, anon, authenticated, service_role;

-- The session's creator acting on a dare of their live session; returns the
-- dare, locked.
create function app_private.dare_for_creator(p_dare_id uuid)
returns public.dares
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  dare public.dares;
  session public.sessions;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  select * into dare from public.dares d where d.id = p_dare_id for update;
  if not found then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;
  select * into session from public.sessions s where s.id = dare.session_id;
  if session.creator_id <> caller then
    raise exception using message = 'error-not-session-creator', errcode = 'P0001';
  end if;
  if session.status <> 'active' then
    raise exception using message = 'error-session-not-active', errcode = 'P0001';
  end if;
  return dare;
end;
$$;
revoke all on function app_private.dare_for_creator(uuid) from public, anon, authenticated, service_role;

-- Every boost of the dares back to its booster (one transfer per booster and
-- dare) in booster order, each booster's wallet locked first; then, once no
-- wallet is left to lock, the boosts of boosters whose account is gone to the
-- forfeit account, which every refund shares.
create function app_private.refund_dares(p_dare_ids uuid[])
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
    where b.dare_id = any (p_dare_ids) and b.refunded_at is null
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
revoke all on function app_private.refund_dares(uuid[]) from public, anon, authenticated, service_role;
revoke all on function app_private.refund_dares(uuid[]) from public, anon, authenticated, service_role;

-- One boost: the coins from the booster's wallet into the dare's pot (the
-- key names the transfer) and its row, which refunds are made from.
create function app_private.record_boost(p_dare_id uuid, p_booster uuid, p_amount integer, p_key text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform ledger.transfer(ledger.wallet_account(p_booster), ledger.pot_account(p_dare_id), p_amount, 'boost',
    p_dare_id::text, p_key);
  insert into public.boosts (dare_id, booster_id, amount, idempotency_key)
  values (p_dare_id, p_booster, p_amount, p_key);
end;
$$;
revoke all on function app_private.record_boost(uuid, uuid, integer, text) from public, anon, authenticated, service_role;

-- Ends a held, open or accepted dare as rejected or expired, refunding it.
create function app_private.close_dare(p_dare_id uuid, p_status text)
returns void
language plpgsql
security definer
set search_path = ''
as $$
begin
  update public.dares set status = p_status, resolved_at = now()
  where id = p_dare_id and status in ('held', 'open', 'accepted');
  if found then
    perform app_private.refund_dares(array[p_dare_id]);
  end if;
end;
$$;
revoke all on function app_private.close_dare(uuid, text) from public, anon, authenticated, service_role;

-- Resolves one dare whose vote has ended, exactly once (the caller holds its
-- row lock; the status check makes a second call a no-op).
create function app_private.resolve_dare(p_dare_id uuid)
returns text
language plpgsql
security definer
set search_path = ''
as $$
declare
  dare public.dares;
  creator uuid;
  yes integer;
  no integer;
  pot_account bigint;
  pot bigint;
  fee bigint;
begin
  select * into dare from public.dares d where d.id = p_dare_id for update;
  if not found or dare.status <> 'voting' or dare.voting_ends_at > now() then
    return null;
  end if;
  select count(*) filter (where v.vote), count(*) filter (where not v.vote) into yes, no
  from public.votes v where v.dare_id = p_dare_id;

  if yes >= no then
    select s.creator_id into creator from public.sessions s where s.id = dare.session_id;
    pot_account := ledger.pot_account(p_dare_id);
    select a.balance into pot from ledger.accounts a where a.id = pot_account;
    fee := (pot * (select st.fee_basis_points from ledger.settings st)) / 10000;
    if pot - fee > 0 then
      perform ledger.transfer(pot_account, ledger.wallet_account(creator), pot - fee, 'payout',
        p_dare_id::text, 'payout:' || p_dare_id::text);
    end if;
    if fee > 0 then
      perform ledger.transfer(pot_account, ledger.system_account('platform_fee'), fee, 'fee',
        p_dare_id::text, 'fee:' || p_dare_id::text);
    end if;
    update public.dares set status = 'completed', resolved_at = now() where id = p_dare_id;
    return 'completed';
  end if;
  perform app_private.refund_dares(array[p_dare_id]);
  update public.dares set status = 'failed', resolved_at = now() where id = p_dare_id;
  return 'failed';
end;
$$;
revoke all on function app_private.resolve_dare(uuid) from public, anon, authenticated, service_role;

-- Resolves due votes (of one session, or of all), each exactly once even with
-- several callers at once: rows another caller is resolving are skipped.
create function app_private.resolve_due_dares(p_session_id uuid, p_limit integer)
returns integer
language plpgsql
security definer
set search_path = ''
as $$
declare
  due uuid;
  resolved integer := 0;
begin
  for due in
    select d.id from public.dares d
    where d.status = 'voting' and d.voting_ends_at <= now()
      and (p_session_id is null or d.session_id = p_session_id)
    order by d.voting_ends_at
    limit greatest(coalesce(p_limit, 100), 1)
    for update skip locked
  loop
    if app_private.resolve_dare(due) is not null then
      resolved := resolved + 1;
    end if;
  end loop;
  return resolved;
end;
$$;
revoke all on function app_private.resolve_due_dares(uuid, integer) from public, anon, authenticated, service_role;

-- For the server's sweeper (its owner connection; no API role). The sweeper
-- resolves one dare a call (p_limit 1), each in its own transaction: the
-- refunds of one dare lock wallets in booster order, those of several would
-- not keep one order and could deadlock with a session stopping.
create function ledger.resolve_due_dares(p_limit integer default 100)
returns integer
language sql
set search_path = ''
as $$
  select app_private.resolve_due_dares(null, p_limit);
$$;
revoke all on function ledger.resolve_due_dares(integer) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- The calls (docs/product.md §6)
-- ---------------------------------------------------------------------------
-- A dare is checked by the text filter (app_private.text_verdict, docs/product.md
-- §13): one of the creator's blocked terms refuses it, a term of the built-in
-- lists holds it for review, and so does a session that holds every new dare.
-- p_language (en, de, es, tr) is the page's language: the author's mails about
-- their dares (a statement of reasons) are written in it.
create function public.create_dare(
  p_description text,
  p_session_id uuid,
  p_reward integer,
  p_idempotency_key text,
  p_language text default null
)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := app_private.assert_participant();
  description text := btrim(p_description);
  session public.sessions;
  dare public.dares;
  created integer;
  verdict text;
begin
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  if p_language is not null and p_language not in ('en', 'de', 'es', 'tr') then
    raise exception using message = 'error-invalid-language', errcode = 'P0001';
  end if;
  -- One caller's dares in one session are counted one request at a time.
  perform pg_advisory_xact_lock(hashtext('dares:' || caller::text), hashtext(coalesce(p_session_id::text, '')));

  select * into dare from public.dares d where d.idempotency_key = 'dare:' || p_idempotency_key;
  if found then
    if dare.author_id is distinct from caller or dare.session_id <> p_session_id then
      raise exception using message = 'error-idempotency-key-reused', errcode = 'P0001';
    end if;
    return dare;
  end if;

  if description is null or char_length(description) < 3 then
    raise exception using message = 'error-dare-description-too-short', errcode = 'P0001';
  end if;
  if char_length(description) > 280 then
    raise exception using message = 'error-dare-description-too-long', errcode = 'P0001';
  end if;
  if description ~ '[[:cntrl:]]' then
    raise exception using message = 'error-dare-description-invalid', errcode = 'P0001';
  end if;
  if p_reward is null or p_reward < 0 or p_reward % 10 <> 0 or p_reward > 1000000 then
    raise exception using message = 'error-invalid-reward', errcode = 'P0001';
  end if;

  -- FOR SHARE, held to commit: a session stopping (stop_active_session, its
  -- creator's deletion) waits for this dare and then expires and refunds it
  -- with the rest; a dare written while the stop is under way waits for it
  -- and then finds the session ended. Without it a dare committed after the
  -- stop's expiry stayed open, with its reward, in an ended session (or went
  -- with a deleted creator's session, its pot still full).
  select * into session from public.sessions s where s.id = p_session_id for share;
  if not found or session.status <> 'active' then
    raise exception using message = 'error-session-not-active', errcode = 'P0001';
  end if;
  if session.creator_id = caller then
    raise exception using message = 'error-own-session', errcode = 'P0001';
  end if;
  perform app_private.assert_not_banned(session.creator_id, caller);

  if (
    select count(*) from public.dares d
    where d.session_id = p_session_id and d.author_id = caller and d.created_at > now() - interval '1 minute'
  ) >= 5 then
    raise exception using message = 'error-too-many-dares', errcode = 'P0001';
  end if;

  select count(*) into created from public.dares d where d.session_id = p_session_id and d.author_id = caller;
  if created >= session.max_dares_per_user then
    raise exception using message = 'error-dare-limit-reached', errcode = 'P0001';
  end if;
  if p_reward = 0 and created >= session.max_free_dares_per_user then
    raise exception using message = 'error-free-dares-used', errcode = 'P0001';
  end if;
  if p_reward > 0 and p_reward < session.min_boost then
    raise exception using message = 'error-reward-too-low', errcode = 'P0001';
  end if;

  verdict := app_private.text_verdict(description, session.creator_id);
  if verdict = 'refused' then
    raise exception using message = 'error-dare-blocked-term', errcode = 'P0001';
  end if;

  insert into public.dares (session_id, author_id, description, reward, idempotency_key, status)
  values (p_session_id, caller, description, p_reward, 'dare:' || p_idempotency_key,
    case when verdict = 'held' or session.hold_new_dares then 'held' else 'open' end)
  returning * into dare;

  if p_language is not null then
    update public.profiles set language = p_language where id = caller and language is distinct from p_language;
  end if;

  if p_reward > 0 then
    perform app_private.record_boost(dare.id, caller, p_reward, 'boost:' || p_idempotency_key);
  end if;
  return dare;
end;
$$;
revoke all on function public.create_dare(text, uuid, integer, text, text) from public, anon, authenticated;
grant execute on function public.create_dare(text, uuid, integer, text, text) to authenticated;

create function public.boost_dare(p_dare_id uuid, p_amount integer, p_idempotency_key text)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := app_private.assert_participant();
  dare public.dares;
  session public.sessions;
  earlier public.boosts;
begin
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  if p_amount is null or p_amount < 10 or p_amount % 10 <> 0 or p_amount > 1000000 then
    raise exception using message = 'error-invalid-amount', errcode = 'P0001';
  end if;

  -- The dare's row lock orders boosts against accept, reject and resolution.
  select * into dare from public.dares d where d.id = p_dare_id for update;
  if not found then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;

  select * into earlier from public.boosts b where b.idempotency_key = 'boost:' || p_idempotency_key;
  if found then
    if earlier.dare_id <> p_dare_id or earlier.booster_id <> caller or earlier.amount <> p_amount then
      raise exception using message = 'error-idempotency-key-reused', errcode = 'P0001';
    end if;
    return dare;
  end if;

  select * into session from public.sessions s where s.id = dare.session_id;
  if session.status <> 'active' then
    raise exception using message = 'error-session-not-active', errcode = 'P0001';
  end if;
  if session.creator_id = caller then
    raise exception using message = 'error-own-session', errcode = 'P0001';
  end if;
  perform app_private.assert_not_banned(session.creator_id, caller);
  if dare.status not in ('open', 'accepted') then
    raise exception using message = 'error-dare-not-boostable', errcode = 'P0001';
  end if;

  perform app_private.record_boost(dare.id, caller, p_amount, 'boost:' || p_idempotency_key);
  return dare;
end;
$$;
revoke all on function public.boost_dare(uuid, integer, text) from public, anon, authenticated;
grant execute on function public.boost_dare(uuid, integer, text) to authenticated;

create function public.accept_dare(p_dare_id uuid)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dare public.dares := app_private.dare_for_creator(p_dare_id);
begin
  if dare.status <> 'open' then
    raise exception using message = 'error-dare-not-open', errcode = 'P0001';
  end if;
  update public.dares set status = 'accepted', accepted_at = now() where id = p_dare_id returning * into dare;
  return dare;
end;
$$;
revoke all on function public.accept_dare(uuid) from public, anon, authenticated;
grant execute on function public.accept_dare(uuid) to authenticated;

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
  if dare.status not in ('held', 'open', 'accepted') then
    raise exception using message = 'error-dare-not-rejectable', errcode = 'P0001';
  end if;
  -- A held dare rejected is never shown, not even as rejected: removed.
  if dare.status = 'held' then
    perform app_private.remove_dare(p_dare_id);
  else
    perform app_private.close_dare(p_dare_id, 'rejected');
  end if;
  perform app_private.record_call('reject', p_idempotency_key, caller, p_dare_id);
  select * into dare from public.dares d where d.id = p_dare_id;
  return dare;
end;
$$;
revoke all on function public.reject_dare(uuid, text) from public, anon, authenticated;
grant execute on function public.reject_dare(uuid, text) to authenticated;

create function public.start_voting(p_dare_id uuid)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dare public.dares := app_private.dare_for_creator(p_dare_id);
  seconds integer;
begin
  if dare.status <> 'accepted' then
    raise exception using message = 'error-dare-not-accepted', errcode = 'P0001';
  end if;
  -- A vote that has ended but is not resolved yet is resolved first.
  perform app_private.resolve_due_dares(dare.session_id, 10);
  if exists (select 1 from public.dares d where d.session_id = dare.session_id and d.status = 'voting') then
    raise exception using message = 'error-vote-in-progress', errcode = 'P0001';
  end if;
  select s.voting_duration into seconds from public.sessions s where s.id = dare.session_id;
  begin
    update public.dares set status = 'voting', voting_ends_at = now() + make_interval(secs => seconds)
    where id = p_dare_id
    returning * into dare;
  exception when unique_violation then
    raise exception using message = 'error-vote-in-progress', errcode = 'P0001';
  end;
  return dare;
end;
$$;
revoke all on function public.start_voting(uuid) from public, anon, authenticated;
grant execute on function public.start_voting(uuid) to authenticated;

-- The creator gives a running vote more time (docs/product.md §6.7): 30 to
-- 600 seconds, in steps of 5, with at most an hour left after it. A vote
-- whose time is up is the sweeper's to resolve.
create function public.extend_vote(p_dare_id uuid, p_seconds integer)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dare public.dares := app_private.dare_for_creator(p_dare_id);
begin
  if dare.status <> 'voting' or dare.voting_ends_at <= now() then
    raise exception using message = 'error-voting-closed', errcode = 'P0001';
  end if;
  if p_seconds is null or p_seconds < 30 or p_seconds > 600 or p_seconds % 5 <> 0 then
    raise exception using message = 'error-invalid-vote-extension', errcode = 'P0001';
  end if;
  if dare.voting_ends_at + make_interval(secs => p_seconds) > now() + interval '1 hour' then
    raise exception using message = 'error-vote-too-long', errcode = 'P0001';
  end if;
  update public.dares set voting_ends_at = voting_ends_at + make_interval(secs => p_seconds)
  where id = p_dare_id
  returning * into dare;
  return dare;
end;
$$;
revoke all on function public.extend_vote(uuid, integer) from public, anon, authenticated;
grant execute on function public.extend_vote(uuid, integer) to authenticated;

-- The creator cancels a running vote (a false start, a dare to redo): its
-- votes are dropped and the dare is accepted again, so a vote can start
-- over. A vote whose time is up is the sweeper's to resolve.
create function public.cancel_vote(p_dare_id uuid)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dare public.dares := app_private.dare_for_creator(p_dare_id);
begin
  if dare.status <> 'voting' or dare.voting_ends_at <= now() then
    raise exception using message = 'error-voting-closed', errcode = 'P0001';
  end if;
  delete from public.votes where dare_id = p_dare_id;
  update public.dares set status = 'accepted', voting_ends_at = null
  where id = p_dare_id
  returning * into dare;
  return dare;
end;
$$;
revoke all on function public.cancel_vote(uuid) from public, anon, authenticated;
grant execute on function public.cancel_vote(uuid) to authenticated;

create function public.vote_for_dare(p_dare_id uuid, p_vote boolean)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := app_private.assert_participant();
  dare public.dares;
  creator uuid;
begin
  if p_vote is null then
    raise exception using message = 'error-invalid-vote', errcode = 'P0001';
  end if;
  -- Shares the row with other voters; resolution takes it exclusively.
  select * into dare from public.dares d where d.id = p_dare_id for share;
  if not found then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;
  select s.creator_id into creator from public.sessions s where s.id = dare.session_id;
  if creator = caller then
    raise exception using message = 'error-own-session', errcode = 'P0001';
  end if;
  perform app_private.assert_not_banned(creator, caller);
  if dare.status <> 'voting' or dare.voting_ends_at <= now() then
    raise exception using message = 'error-voting-closed', errcode = 'P0001';
  end if;
  insert into public.votes (dare_id, voter_id, vote) values (p_dare_id, caller, p_vote)
  on conflict (dare_id, voter_id) do update set vote = excluded.vote, updated_at = now();
  return dare;
end;
$$;
revoke all on function public.vote_for_dare(uuid, boolean) from public, anon, authenticated;
grant execute on function public.vote_for_dare(uuid, boolean) to authenticated;

-- The session page's dares, now read through live_dares (one place says what
-- a dare shows): due votes resolved first, then every dare with the reader's
-- own boost and vote, running ones first, most coins first.
create function public.session_dares(p_session_id uuid)
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
      (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid()) and b.refunded_at is null and (select app_private.has_assurance())),
      (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()) and (select app_private.has_assurance()))
    from app_private.live_dares(p_session_id, null,
      case when (select app_private.has_assurance()) then (select auth.uid()) end) l
    order by (l.status in ('open', 'accepted', 'voting')) desc, l.pot desc, l.created_at, l.id;
end;
$$;
revoke all on function public.session_dares(uuid) from public, anon, authenticated;
grant execute on function public.session_dares(uuid) to anon, authenticated;

-- A session's activity for lists (home): how many dares it has and how many
-- coins its running dares hold. Definer rights: the pots are in the ledger.
create function public.session_totals(p_session_id uuid)
returns table (dares integer, pot bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select count(*)::integer,
    coalesce(sum(a.balance) filter (where d.status in ('open', 'accepted', 'voting')), 0)::bigint
  from public.dares d
  left join ledger.accounts a on a.kind = 'pot' and a.dare_id = d.id
  where d.session_id = p_session_id and d.status not in ('held', 'removed');
$$;
revoke all on function public.session_totals(uuid) from public, anon, authenticated;
grant execute on function public.session_totals(uuid) to anon, authenticated;

revoke all on function app_private.stop_sessions_of_deleted_user(uuid) from public, anon, authenticated, service_role;

revoke all on function app_private.stop_sessions_of_deleted_user(uuid) from public, anon, authenticated, service_role;

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
revoke all on function app_private.replayed_call(text, text, uuid, uuid) from public, anon, authenticated, service_role;

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
revoke all on function app_private.record_call(text, text, uuid, uuid) from public, anon, authenticated, service_role;

revoke all on function public.stop_active_session(text) from public, anon, authenticated;

grant execute on function public.stop_active_session(text) to authenticated;
