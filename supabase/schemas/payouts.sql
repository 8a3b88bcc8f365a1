-- supabase/schemas/payouts.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Creators get paid (docs/product.md §14): earnings that mature, payout
-- requests, the payout account, operator review, disputes and claw-backs;
-- and the ledger's invariant, which covers all of it.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.
--
-- Where the coins are
--  * A creator's earnings are the `payout` transfers into their wallet (a
--    completed dare's pot, supabase/schemas/dares.sql). Each is pending for
--    ledger.settings.payout_hold_days after it was made, then matured. What a
--    creator may request is derived from the ledger on every reading, never
--    kept in a counter: walking the wallet's transfers in order, matured
--    earnings and returned payouts add to it, requests take from it, and
--    after any other debit it is at most what the wallet still held. So
--    coins bought or still pending are spent first, and a coin bought after
--    earnings were spent never becomes available.
--  * A request moves the coins into the one `payouts` account (payout_request)
--    where they wait for the operator's review and the payment provider. Paid:
--    they leave to the world (payout_paid, and payout_fee to the platform's fee
--    account). Failed or rejected: they go back to the wallet (payout_return).
--    ledger.check() verifies that the payouts account holds exactly the coins
--    of the payouts under way.
--  * A disputed purchase takes its coins back from the buyer's wallet as far as
--    they are there (clawback); the rest is a debt their next purchases settle
--    first (debt_settlement). Until the dispute is decided and the debt paid,
--    the buyer may not spend (ledger.transfer refuses boosts and payout
--    requests). A dispute the platform wins gives back what it took
--    (clawback_return). No balance but the world's is ever negative.
--
-- Money functions the browser may call take the caller from auth.uid(); the
-- provider's steps (ledger.*) run only on the app's owner connection.

-- ---------------------------------------------------------------------------
-- Operator settings (the app writes them at start-up)
-- ---------------------------------------------------------------------------
create function ledger.set_payout_settings(
  p_hold_days integer,
  p_min_coins bigint,
  p_review_coins bigint,
  p_cents_per_coin numeric,
  p_fee_basis_points integer,
  p_currency text
)
returns void
language sql
set search_path = ''
as $$
  update ledger.settings set
    payout_hold_days = p_hold_days,
    payout_min_coins = p_min_coins,
    payout_review_coins = p_review_coins,
    payout_cents_per_coin = p_cents_per_coin,
    payout_fee_basis_points = p_fee_basis_points,
    payout_currency = p_currency;
$$;

-- ---------------------------------------------------------------------------
-- Payout accounts (the creator's account with the payment provider)
-- ---------------------------------------------------------------------------
create table ledger.payout_accounts (
  user_id uuid primary key references auth.users (id) on delete cascade,
  provider text not null
    constraint payout_accounts_provider_valid check (provider in ('stripe', 'test')),
  external_id text not null
    constraint payout_accounts_external_id_format check (external_id ~ '^[!-~]{1,255}$'),
  country text not null
    constraint payout_accounts_country_format check (country ~ '^[A-Z]{2}$'),
  status text not null
    constraint payout_accounts_status_valid check (status in ('onboarding', 'ready', 'restricted')),
  -- What the provider still needs from the creator (the app's own codes).
  requirements text[] not null default '{}',
  disabled_reason text
    constraint payout_accounts_disabled_reason_length check (char_length(disabled_reason) <= 500),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);
create unique index payout_accounts_external_id on ledger.payout_accounts (external_id);
alter table ledger.payout_accounts enable row level security;

create function ledger.save_payout_account(
  p_user uuid,
  p_provider text,
  p_external_id text,
  p_country text,
  p_status text,
  p_requirements text[],
  p_disabled_reason text
)
returns void
language sql
set search_path = ''
as $$
  -- Two saves of one creator's account at once (two clicks, a click and a
  -- webhook) run one after the other: at once, the second insert would meet
  -- the first's external id, which its `on conflict` does not cover.
  select pg_advisory_xact_lock(hashtext('payout-account'), hashtext(p_user::text));
  insert into ledger.payout_accounts (user_id, provider, external_id, country, status, requirements, disabled_reason)
  values (p_user, p_provider, p_external_id, p_country, p_status, coalesce(p_requirements, '{}'), p_disabled_reason)
  on conflict (user_id) do update set
    provider = excluded.provider,
    external_id = excluded.external_id,
    country = excluded.country,
    status = excluded.status,
    requirements = excluded.requirements,
    disabled_reason = excluded.disabled_reason,
    updated_at = now();
$$;

-- ---------------------------------------------------------------------------
-- Payouts
-- ---------------------------------------------------------------------------

-- One row per request. Kept when the account is deleted (bookkeeping), like
-- the transfers. review: waits for an operator (the creator's first payout,
-- or one above payout_review_coins); approved: to be sent; sent: the
-- provider took it; paid: the money left; failed, rejected: the coins went
-- back to the wallet.
create table ledger.payouts (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  idempotency_key text not null
    constraint payouts_idempotency_key_format check (idempotency_key ~ '^[!-~]{8,200}$'),
  coins bigint not null
    constraint payouts_coins_valid check (coins > 0 and coins <= 1000000000),
  fee_coins bigint not null
    constraint payouts_fee_valid check (fee_coins >= 0 and fee_coins <= coins),
  -- What the creator receives, in the currency's minor unit, at the rate of the request.
  amount_minor bigint not null
    constraint payouts_amount_valid check (amount_minor >= 0),
  currency text not null
    constraint payouts_currency_format check (currency ~ '^[A-Z]{3}$'),
  cents_per_coin numeric(10, 4) not null,
  status text not null
    constraint payouts_status_valid check (status in ('review', 'approved', 'sent', 'paid', 'failed', 'rejected')),
  needs_review boolean not null,
  provider text not null
    constraint payouts_provider_valid check (provider in ('stripe', 'test')),
  external_account text not null,
  provider_transfer_id text
    constraint payouts_provider_transfer_format check (provider_transfer_id ~ '^[!-~]{1,255}$'),
  failure_reason text
    constraint payouts_failure_reason_length check (char_length(failure_reason) <= 2000),
  created_at timestamptz not null default now(),
  decided_at timestamptz,
  sent_at timestamptz,
  paid_at timestamptz,
  failed_at timestamptz
);
create unique index payouts_user_key on ledger.payouts (user_id, idempotency_key);
create index payouts_user_latest_idx on ledger.payouts (user_id, created_at desc);
create index payouts_under_way_idx on ledger.payouts (status, created_at) where status in ('review', 'approved', 'sent');
create unique index payouts_provider_transfer on ledger.payouts (provider_transfer_id);
alter table ledger.payouts enable row level security;

-- ---------------------------------------------------------------------------
-- Disputes
-- ---------------------------------------------------------------------------

-- A disputed purchase (Stripe's charge.dispute.created): coins is what the
-- dispute is worth in coins. What was taken back and what was settled later
-- are the clawback and debt_settlement transfers that name the dispute.
-- cleared_at: when nothing was owed any more.
create table ledger.disputes (
  id text primary key
    constraint disputes_id_format check (id ~ '^[!-~]{1,200}$'),
  purchase_id uuid not null references ledger.purchases (id),
  user_id uuid not null,
  coins bigint not null
    constraint disputes_coins_valid check (coins > 0 and coins <= 10000000),
  status text not null default 'open'
    constraint disputes_status_valid check (status in ('open', 'won', 'lost')),
  created_at timestamptz not null default now(),
  closed_at timestamptz,
  cleared_at timestamptz
);
-- The disputes that stop a buyer spending: open, or lost with a debt left.
create index disputes_restricting on ledger.disputes (user_id)
  where status = 'open' or (status = 'lost' and cleared_at is null);
create index disputes_user_idx on ledger.disputes (user_id, created_at);
-- A dispute's transfers (what it took, what purchases settled, what it gave
-- back) name it: found by that name, not by a scan of every transfer.
create index transfers_dispute_reference on ledger.transfers (reference)
  where kind in ('clawback', 'debt_settlement', 'clawback_return');
alter table ledger.disputes enable row level security;

create function ledger.spending_restricted(p_user uuid)
returns boolean
language plpgsql
stable
set search_path = ''
as $$
begin
  return exists (
    select 1 from ledger.disputes d
    where d.user_id = p_user and (d.status = 'open' or (d.status = 'lost' and d.cleared_at is null))
  );
end;
$$;

-- What a dispute still owes: its coins less what was taken back and settled.
create function ledger.dispute_outstanding(p_dispute text)
returns bigint
language sql
stable
set search_path = ''
as $$
  select case when d.status = 'won' then 0 else d.coins - coalesce((
    select sum(t.amount) from ledger.transfers t
    where t.reference = d.id and t.kind in ('clawback', 'debt_settlement')
  ), 0) end::bigint
  from ledger.disputes d where d.id = p_dispute;
$$;

-- ---------------------------------------------------------------------------
-- A creator's standing: every figure derived from the ledger
-- ---------------------------------------------------------------------------
create function ledger.payout_standing(p_user uuid)
returns table (
  balance bigint,
  earned bigint,
  pending bigint,
  available bigint,
  in_payout bigint,
  paid_out bigint,
  debt bigint,
  is_creator boolean,
  payouts_restricted boolean,
  spending_restricted boolean,
  account_status text,
  blockers text[]
)
language sql
stable
set search_path = ''
as $$
  with settings as (
    select s.payout_hold_days, s.payout_min_coins from ledger.settings s
  ),
  account as (
    select a.id from ledger.accounts a where a.kind = 'wallet' and a.user_id = p_user
  ),
  -- Every transfer in or out of the wallet, signed from its side.
  moves as (
    select t.id, t.kind, t.amount, t.created_at, true as incoming
    from ledger.transfers t join account a on t.to_account = a.id
    union all
    select t.id, t.kind, -t.amount, t.created_at, false
    from ledger.transfers t join account a on t.from_account = a.id
  ),
  -- In order: the balance after each transfer, and the running sum of what
  -- changes the payable figure (matured earnings and returns in, requests out).
  steps as (
    select m.*,
      sum(m.amount) over (order by m.id) as held,
      sum(case
        when m.kind = 'payout' and m.incoming and m.created_at <= now() - make_interval(days => st.payout_hold_days) then m.amount
        when m.kind = 'payout_return' and m.incoming then m.amount
        when m.kind = 'payout_request' and not m.incoming then m.amount
        else 0
      end) over (order by m.id) as payable_sum
    from moves m cross join settings st
  ),
  sums as (
    select
      coalesce(sum(s.amount) filter (where s.kind = 'payout' and s.incoming), 0) as earned,
      coalesce(sum(s.amount) filter (
        where s.kind = 'payout' and s.incoming and s.created_at > now() - make_interval(days => st.payout_hold_days)
      ), 0) as pending,
      -- The payable figure after the last transfer: the running sum, but after
      -- any other debit never more than the wallet then held (the fold
      -- p = min(p + change, held after a debit), in closed form).
      least(
        coalesce((select x.payable_sum from steps x order by x.id desc limit 1), 0),
        coalesce((select x.payable_sum from steps x order by x.id desc limit 1), 0)
          + coalesce(min(s.held - s.payable_sum) filter (where not s.incoming and s.kind <> 'payout_request'), 0)
      ) as payable
    from settings st left join steps s on true
  ),
  figures as (
    select
      coalesce((select w.balance from public.wallets w where w.id = p_user), 0) as balance,
      s.earned, s.pending, s.payable,
      coalesce((select sum(p.coins) from ledger.payouts p
        where p.user_id = p_user and p.status in ('review', 'approved', 'sent')), 0) as in_payout,
      coalesce((select sum(p.coins) from ledger.payouts p where p.user_id = p_user and p.status = 'paid'), 0) as paid_out,
      coalesce((select sum(ledger.dispute_outstanding(d.id)) from ledger.disputes d
        where d.user_id = p_user and d.status in ('open', 'lost')), 0) as debt,
      exists (select 1 from public.creator_profiles c where c.id = p_user) or s.earned > 0 as is_creator,
      exists (select 1 from app_private.account_restrictions r
        where r.user_id = p_user and r.payouts_restricted_at is not null) as payouts_restricted,
      ledger.spending_restricted(p_user) as spending_restricted,
      (select pa.status from ledger.payout_accounts pa where pa.user_id = p_user) as account_status
    from sums s
  ),
  derived as (
    select f.*, greatest(0, least(f.balance, f.payable)) as available
    from figures f
  )
  select d.balance::bigint, d.earned::bigint, d.pending::bigint, d.available::bigint, d.in_payout::bigint,
    d.paid_out::bigint, d.debt::bigint, d.is_creator, d.payouts_restricted, d.spending_restricted, d.account_status,
    array_remove(array[
      case when not d.is_creator then 'error-not-a-creator' end,
      case when d.payouts_restricted then 'error-payouts-restricted' end,
      case when d.spending_restricted then 'error-spending-restricted' end,
      case when d.account_status is null then 'error-payout-account-missing'
        when d.account_status <> 'ready' then 'error-payout-account-not-ready' end,
      case when d.available < st.payout_min_coins then 'error-payout-below-minimum' end
    ], null)
  from derived d cross join settings st;
$$;

-- The conversion of a request of p_coins: the fee (in coins) and what the
-- creator receives (the currency's minor unit, rounded down).
create function ledger.payout_conversion(p_coins bigint)
returns table (coins bigint, fee_coins bigint, amount_minor bigint, currency text, cents_per_coin numeric)
language sql
stable
set search_path = ''
as $$
  select p_coins, f.fee, floor((p_coins - f.fee) * s.payout_cents_per_coin)::bigint, s.payout_currency,
    s.payout_cents_per_coin
  from ledger.settings s
  cross join lateral (select (p_coins * s.payout_fee_basis_points / 10000)::bigint as fee) f;
$$;

-- Whether an operator has passed none of the creator's payouts yet: their
-- next one is their first, and waits for review (docs/product.md §14.4).
create function ledger.first_payout(p_user uuid)
returns boolean
language sql
stable
set search_path = ''
as $$
  select not exists (select 1 from ledger.payouts p where p.user_id = p_user and p.status in ('approved', 'sent', 'paid'));
$$;

-- ---------------------------------------------------------------------------
-- What the creator's pages read and do
-- ---------------------------------------------------------------------------
create function public.my_earnings()
returns table (
  balance bigint,
  earned bigint,
  pending bigint,
  available bigint,
  in_payout bigint,
  paid_out bigint,
  debt bigint,
  hold_days integer,
  min_coins bigint,
  review_coins bigint,
  cents_per_coin numeric,
  fee_basis_points integer,
  currency text,
  account_status text,
  account_requirements text[],
  account_country text,
  account_disabled_reason text,
  payouts_restricted boolean,
  spending_restricted boolean,
  is_creator boolean,
  blockers text[]
)
language sql
stable
security definer
set search_path = ''
as $$
  select p.balance, p.earned, p.pending, p.available, p.in_payout, p.paid_out, p.debt,
    s.payout_hold_days, s.payout_min_coins, s.payout_review_coins, s.payout_cents_per_coin,
    s.payout_fee_basis_points, s.payout_currency,
    p.account_status, coalesce(pa.requirements, '{}'), pa.country, pa.disabled_reason,
    p.payouts_restricted, p.spending_restricted, p.is_creator, p.blockers
  from ledger.payout_standing((select auth.uid())) p
  cross join ledger.settings s
  left join ledger.payout_accounts pa on pa.user_id = (select auth.uid())
  where (select auth.uid()) is not null and (select app_private.has_assurance());
$$;

-- The caller's earnings still in hold, each with the time it matures.
create function public.my_pending_earnings()
returns table (matures_at timestamptz, coins bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select t.created_at + make_interval(days => s.payout_hold_days), t.amount
  from ledger.accounts a
  join ledger.transfers t on t.to_account = a.id and t.kind = 'payout'
  cross join ledger.settings s
  where a.kind = 'wallet' and a.user_id = (select auth.uid()) and (select app_private.has_assurance())
    and t.created_at > now() - make_interval(days => s.payout_hold_days)
  order by t.id;
$$;

-- The caller's earnings per session, newest session first.
create function public.my_earnings_by_session(p_limit integer default 50)
returns table (session_id uuid, title text, started_at timestamptz, ended_at timestamptz, coins bigint, dares integer)
language sql
stable
security definer
set search_path = ''
as $$
  select s.id, s.title, s.created_at, s.ended_at, sum(t.amount)::bigint, count(*)::integer
  from ledger.accounts a
  join ledger.transfers t on t.to_account = a.id and t.kind = 'payout'
  join public.dares d on d.id::text = t.reference
  join public.sessions s on s.id = d.session_id
  where a.kind = 'wallet' and a.user_id = (select auth.uid()) and (select app_private.has_assurance())
  group by s.id
  order by s.created_at desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$$;

create function public.my_payouts(p_limit integer default 50)
returns table (
  id uuid,
  created_at timestamptz,
  coins bigint,
  fee_coins bigint,
  amount_minor bigint,
  currency text,
  status text,
  needs_review boolean,
  failure_reason text,
  paid_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, p.created_at, p.coins, p.fee_coins, p.amount_minor, p.currency, p.status, p.needs_review,
    p.failure_reason, p.paid_at
  from ledger.payouts p
  where p.user_id = (select auth.uid()) and (select app_private.has_assurance())
  order by p.created_at desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$$;

create function public.payout_quote(p_coins bigint)
returns table (coins bigint, fee_coins bigint, amount_minor bigint, currency text)
language sql
stable
security definer
set search_path = ''
as $$
  select c.coins, c.fee_coins, c.amount_minor, c.currency
  from ledger.payout_conversion(p_coins) c
  where (select auth.uid()) is not null and p_coins > 0 and p_coins <= 1000000000;
$$;

-- A payout request by the caller, once per idempotency key (docs/product.md
-- §14.2). The wallet row is locked first: the caller's requests and spending
-- run one after another, and what is available is read under that lock.
create function public.request_payout(p_coins bigint, p_idempotency_key text)
returns table (
  id uuid,
  status text,
  coins bigint,
  fee_coins bigint,
  amount_minor bigint,
  currency text,
  replayed boolean
)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  existing ledger.payouts;
  standing record;
  conversion record;
  account ledger.payout_accounts;
  created ledger.payouts;
  review boolean;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  if p_coins is null or p_coins <= 0 or p_coins > 1000000000 then
    raise exception using message = 'error-invalid-amount', errcode = 'P0001';
  end if;

  perform 1 from public.wallets w where w.id = caller for update;
  if not found then
    raise exception using message = 'error-wallet-not-found', errcode = 'P0001';
  end if;

  select * into existing from ledger.payouts p where p.user_id = caller and p.idempotency_key = p_idempotency_key;
  if found then
    if existing.coins <> p_coins then
      raise exception using message = 'error-idempotency-key-reused', errcode = 'P0001';
    end if;
    return query select existing.id, existing.status, existing.coins, existing.fee_coins, existing.amount_minor,
      existing.currency, true;
    return;
  end if;

  select * into standing from ledger.payout_standing(caller);
  -- Every blocker but the minimum, in the order the earnings page lists them;
  -- the amount itself is checked next.
  if cardinality(array_remove(standing.blockers, 'error-payout-below-minimum')) > 0 then
    raise exception using message = (array_remove(standing.blockers, 'error-payout-below-minimum'))[1], errcode = 'P0001';
  end if;
  if p_coins < (select s.payout_min_coins from ledger.settings s) then
    raise exception using message = 'error-payout-below-minimum', errcode = 'P0001';
  end if;
  if p_coins > standing.available then
    raise exception using message = 'error-payout-above-available', errcode = 'P0001';
  end if;

  select * into account from ledger.payout_accounts pa where pa.user_id = caller;
  select * into conversion from ledger.payout_conversion(p_coins);
  review := p_coins > (select s.payout_review_coins from ledger.settings s) or ledger.first_payout(caller);

  insert into ledger.payouts (
    user_id, idempotency_key, coins, fee_coins, amount_minor, currency, cents_per_coin, status, needs_review,
    provider, external_account
  ) values (
    caller, p_idempotency_key, p_coins, conversion.fee_coins, conversion.amount_minor, conversion.currency,
    conversion.cents_per_coin, case when review then 'review' else 'approved' end, review,
    account.provider, account.external_id
  )
  returning * into created;

  perform ledger.transfer(ledger.wallet_account(caller), ledger.system_account('payouts'), p_coins,
    'payout_request', created.id::text, 'payout-request:' || created.id::text);

  return query select created.id, created.status, created.coins, created.fee_coins, created.amount_minor,
    created.currency, false;
end;
$$;

-- ---------------------------------------------------------------------------
-- The payment provider's steps (the app's owner connection)
-- ---------------------------------------------------------------------------

-- Approved payouts not yet sent, oldest first, and any left `sent` for a
-- minute (its provider step was cut short: sending again finds the transfer
-- made under the payout's key). Not while the creator's payouts are
-- restricted or a purchase of theirs is disputed (docs/product.md §14.5):
-- those wait.
create function ledger.payouts_to_send(p_limit integer)
returns table (
  id uuid,
  user_id uuid,
  coins bigint,
  fee_coins bigint,
  amount_minor bigint,
  currency text,
  provider text,
  external_account text
)
language sql
stable
set search_path = ''
as $$
  select p.id, p.user_id, p.coins, p.fee_coins, p.amount_minor, p.currency, p.provider, p.external_account
  from ledger.payouts p
  where (p.status = 'approved' or (p.status = 'sent' and p.sent_at < now() - interval '1 minute'))
    and not exists (
      select 1 from app_private.account_restrictions r where r.user_id = p.user_id and r.payouts_restricted_at is not null
    )
    and not ledger.spending_restricted(p.user_id)
  order by p.created_at
  limit least(greatest(coalesce(p_limit, 20), 1), 500);
$$;

create function ledger.payout_by_transfer(p_transfer text)
returns uuid
language sql
stable
set search_path = ''
as $$
  select p.id from ledger.payouts p where p.provider_transfer_id = p_transfer;
$$;

create function ledger.mark_payout_sent(p_payout uuid, p_transfer text)
returns boolean
language plpgsql
set search_path = ''
as $$
begin
  update ledger.payouts set status = 'sent', provider_transfer_id = p_transfer, sent_at = now()
  where id = p_payout and status = 'approved';
  return found;
end;
$$;

-- The money left: the coins leave the payouts account, the fee to the
-- platform, the rest to the outside world; with the provider's transfer, in
-- the same transaction (a payout is never left sent with its money gone).
-- The three accounts are locked in id order first, as every transfer
-- locks them.
create function ledger.mark_payout_paid(p_payout uuid, p_transfer text default null)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  payout ledger.payouts;
begin
  select * into payout from ledger.payouts p where p.id = p_payout for update;
  if not found or payout.status not in ('approved', 'sent') then
    return false;
  end if;
  perform 1 from ledger.accounts a where a.kind in ('payouts', 'world', 'platform_fee') order by a.id for no key update;
  if payout.coins - payout.fee_coins > 0 then
    perform ledger.transfer(ledger.system_account('payouts'), ledger.system_account('world'),
      payout.coins - payout.fee_coins, 'payout_paid', payout.id::text, 'payout-paid:' || payout.id::text);
  end if;
  if payout.fee_coins > 0 then
    perform ledger.transfer(ledger.system_account('payouts'), ledger.system_account('platform_fee'),
      payout.fee_coins, 'payout_fee', payout.id::text, 'payout-fee:' || payout.id::text);
  end if;
  update ledger.payouts set status = 'paid', paid_at = now(),
    provider_transfer_id = coalesce(provider_transfer_id, p_transfer), sent_at = coalesce(sent_at, now())
  where id = payout.id;
  return true;
end;
$$;

-- A payout that will not be paid (failed, rejected): its coins back to the
-- wallet, where they are available again; the wallet of a deleted account is
-- gone, so they go to the forfeit account. The payout row is locked by the
-- caller or here.
create function ledger.return_payout(p_payout uuid, p_status text, p_reason text)
returns boolean
language plpgsql
set search_path = ''
as $$
declare
  payout ledger.payouts;
  wallet_exists boolean;
begin
  if p_status not in ('failed', 'rejected') then
    raise exception using message = 'error-invalid-transfer', errcode = 'P0001';
  end if;
  select * into payout from ledger.payouts p where p.id = p_payout for update;
  if not found or payout.status not in ('review', 'approved', 'sent')
     or (p_status = 'failed' and payout.status = 'review') then
    return false;
  end if;
  wallet_exists := exists (select 1 from public.wallets w where w.id = payout.user_id);
  perform ledger.transfer(
    ledger.system_account('payouts'),
    case when wallet_exists then ledger.wallet_account(payout.user_id) else ledger.system_account('forfeit') end,
    payout.coins,
    case when wallet_exists then 'payout_return' else 'forfeit' end,
    payout.id::text,
    'payout-return:' || payout.id::text
  );
  update ledger.payouts set
    status = p_status,
    failure_reason = left(p_reason, 2000),
    failed_at = case when p_status = 'failed' then now() end,
    decided_at = case when p_status = 'rejected' then now() else decided_at end
  where id = payout.id;
  return true;
end;
$$;

create function ledger.mark_payout_failed(p_payout uuid, p_reason text)
returns table (changed boolean, user_id uuid, email text, language text)
language sql
set search_path = ''
as $$
  select r.changed, p.user_id, u.email::text, coalesce(pr.language, 'en')
  from (select ledger.return_payout(p_payout, 'failed', p_reason) as changed) r
  join ledger.payouts p on p.id = p_payout
  left join auth.users u on u.id = p.user_id
  left join public.profiles pr on pr.id = p.user_id;
$$;

-- ---------------------------------------------------------------------------
-- Operators' review (decided through public.moderate, supabase/schemas/moderation.sql)
-- ---------------------------------------------------------------------------
create function public.payouts_awaiting_review()
returns table (
  id uuid,
  user_id uuid,
  username text,
  coins bigint,
  amount_minor bigint,
  currency text,
  created_at timestamptz,
  first_payout boolean,
  earned bigint,
  account_country text
)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, p.user_id, pr.username, p.coins, p.amount_minor, p.currency, p.created_at,
    ledger.first_payout(p.user_id),
    (select st.earned from ledger.payout_standing(p.user_id) st),
    pa.country
  from ledger.payouts p
  left join public.profiles pr on pr.id = p.user_id
  left join ledger.payout_accounts pa on pa.user_id = p.user_id
  where p.status = 'review' and app_private.is_operator()
  order by p.created_at;
$$;

-- ---------------------------------------------------------------------------
-- Disputes and claw-backs (the Stripe webhook, the app's owner connection)
-- ---------------------------------------------------------------------------

-- A purchase's payment is disputed: what the dispute is worth in coins (the
-- disputed share of the purchase) comes back from the buyer's wallet as far
-- as it is there; the rest is owed. Once per dispute. No row for a payment
-- no purchase knows.
create function ledger.open_dispute(p_dispute_id text, p_payment_intent text, p_amount_minor bigint)
returns table (user_id uuid, coins bigint, clawed_back bigint, debt bigint, opened boolean)
language plpgsql
set search_path = ''
as $$
declare
  purchase ledger.purchases;
  dispute ledger.disputes;
  worth bigint;
  taken bigint := 0;
  held bigint;
begin
  select * into dispute from ledger.disputes d where d.id = p_dispute_id;
  if found then
    return query select dispute.user_id, dispute.coins,
      coalesce((select sum(t.amount) from ledger.transfers t where t.reference = dispute.id and t.kind = 'clawback'), 0)::bigint,
      ledger.dispute_outstanding(dispute.id), false;
    return;
  end if;
  select * into purchase from ledger.purchases p
  where p.payment_intent_id = p_payment_intent and p.status = 'completed';
  if not found then
    return;
  end if;
  worth := case
    when p_amount_minor is null or purchase.amount_minor = 0 or p_amount_minor >= purchase.amount_minor then purchase.coins
    else greatest(1, (purchase.coins * greatest(p_amount_minor, 0)) / purchase.amount_minor)
  end;

  select w.balance into held from public.wallets w where w.id = purchase.user_id for update;
  insert into ledger.disputes (id, purchase_id, user_id, coins)
  values (p_dispute_id, purchase.id, purchase.user_id, worth)
  on conflict do nothing
  returning * into dispute;
  if dispute.id is null then
    -- The same dispute, delivered twice at once: the other delivery recorded it.
    return query select * from ledger.open_dispute(p_dispute_id, p_payment_intent, p_amount_minor);
    return;
  end if;
  taken := least(worth, coalesce(held, 0));
  if taken > 0 then
    perform ledger.transfer(ledger.wallet_account(purchase.user_id), ledger.system_account('world'), taken,
      'clawback', dispute.id, 'clawback:' || dispute.id);
  end if;
  if taken = worth then
    update ledger.disputes set cleared_at = now() where id = dispute.id;
  end if;
  return query select purchase.user_id, worth, taken, worth - taken, true;
end;
$$;

-- A later purchase settles what disputes still owe, oldest first, as far as
-- the wallet holds coins.
create function ledger.settle_debts(p_user uuid, p_purchase uuid)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  dispute ledger.disputes;
  owed bigint;
  held bigint;
  settled bigint := 0;
  part bigint;
begin
  for dispute in
    select * from ledger.disputes d
    where d.user_id = p_user and d.status in ('open', 'lost') and d.cleared_at is null
    order by d.created_at, d.id
    for update
  loop
    owed := ledger.dispute_outstanding(dispute.id);
    select w.balance into held from public.wallets w where w.id = p_user;
    part := least(owed, coalesce(held, 0));
    if part > 0 then
      perform ledger.transfer(ledger.wallet_account(p_user), ledger.system_account('world'), part,
        'debt_settlement', dispute.id, 'debt-settlement:' || dispute.id || ':' || p_purchase::text);
      settled := settled + part;
    end if;
    if part = owed then
      update ledger.disputes set cleared_at = now() where id = dispute.id;
    end if;
  end loop;
  return settled;
end;
$$;

-- The dispute is decided. Won by the platform: the buyer gets back what was
-- taken (claw-back and settlements) and owes nothing. Lost: what was taken
-- stays taken; a debt left stays until purchases settle it. Once.
create function ledger.close_dispute(p_dispute_id text, p_won boolean)
returns table (user_id uuid, restored bigint, changed boolean)
language plpgsql
set search_path = ''
as $$
declare
  dispute ledger.disputes;
  taken bigint;
begin
  -- The buyer's wallet first, then the dispute: the order of a purchase,
  -- which locks the wallet and then settles the buyer's disputes.
  perform 1 from public.wallets w where w.id = (select d.user_id from ledger.disputes d where d.id = p_dispute_id) for update;
  select * into dispute from ledger.disputes d where d.id = p_dispute_id for update;
  if not found then
    return;
  end if;
  if dispute.status <> 'open' then
    return query select dispute.user_id, 0::bigint, false;
    return;
  end if;
  taken := coalesce((
    select sum(t.amount) from ledger.transfers t
    where t.reference = dispute.id and t.kind in ('clawback', 'debt_settlement')
  ), 0);
  if p_won then
    if taken > 0 and exists (select 1 from public.wallets w where w.id = dispute.user_id) then
      perform ledger.transfer(ledger.system_account('world'), ledger.wallet_account(dispute.user_id), taken,
        'clawback_return', dispute.id, 'clawback-return:' || dispute.id);
    else
      taken := 0;
    end if;
    update ledger.disputes set status = 'won', closed_at = now(), cleared_at = coalesce(cleared_at, now())
    where id = dispute.id;
  else
    update ledger.disputes set status = 'lost', closed_at = now() where id = dispute.id;
    taken := 0;
  end if;
  return query select dispute.user_id, taken, true;
end;
$$;

-- ---------------------------------------------------------------------------
-- The invariant, for tests and for `npm run ledger:check`
-- ---------------------------------------------------------------------------

-- One row per problem; none when the books are right: every account's
-- running balance equals its transfers in minus out, every wallet's cached
-- balance equals its account's, the payouts account holds exactly the coins
-- of the payouts under way, no balance but the world's is negative, and all
-- accounts together hold zero.
create function ledger.check()
returns table (account_id bigint, kind text, owner uuid, problem text, expected bigint, actual bigint)
language sql
stable
set search_path = ''
as $$
  with sums as (
    select a.id, a.kind, coalesce(a.user_id, a.dare_id) as owner, a.balance,
      coalesce((select sum(t.amount) from ledger.transfers t where t.to_account = a.id), 0)
      - coalesce((select sum(t.amount) from ledger.transfers t where t.from_account = a.id), 0) as from_transfers
    from ledger.accounts a
  )
  select s.id, s.kind, s.owner, 'balance differs from transfers', s.from_transfers::bigint, s.balance
  from sums s where s.balance <> s.from_transfers
  union all
  select a.id, a.kind, a.user_id, 'wallet cache differs from ledger', a.balance, coalesce(w.balance, 0)
  from ledger.accounts a left join public.wallets w on w.id = a.user_id
  where a.kind = 'wallet' and a.balance <> coalesce(w.balance, 0)
  union all
  select null::bigint, 'wallet', w.id, 'wallet without ledger account', 0::bigint, w.balance
  from public.wallets w
  where w.balance <> 0
    and not exists (select 1 from ledger.accounts a where a.kind = 'wallet' and a.user_id = w.id)
  union all
  select a.id, a.kind, null::uuid, 'payouts account differs from the payouts under way', u.coins, a.balance
  from ledger.accounts a
  cross join (
    select coalesce(sum(p.coins), 0)::bigint as coins from ledger.payouts p where p.status in ('review', 'approved', 'sent')
  ) u
  where a.kind = 'payouts' and a.balance <> u.coins
  union all
  select a.id, a.kind, coalesce(a.user_id, a.dare_id), 'negative balance', 0::bigint, a.balance
  from ledger.accounts a where a.kind <> 'world' and a.balance < 0
  union all
  select null::bigint, 'all', null::uuid, 'accounts do not sum to zero', 0::bigint, sum(a.balance)::bigint
  from ledger.accounts a having sum(a.balance) <> 0;
$$;

-- ---------------------------------------------------------------------------
-- Privileges
-- ---------------------------------------------------------------------------
revoke all on table ledger.payout_accounts, ledger.payouts, ledger.disputes
  from public, anon, authenticated, service_role;

revoke all on function
  ledger.set_payout_settings(integer, bigint, bigint, numeric, integer, text),
  ledger.save_payout_account(uuid, text, text, text, text, text[], text),
  ledger.spending_restricted(uuid),
  ledger.dispute_outstanding(text),
  ledger.payout_standing(uuid),
  ledger.payout_conversion(bigint),
  ledger.first_payout(uuid),
  ledger.payouts_to_send(integer),
  ledger.payout_by_transfer(text),
  ledger.mark_payout_sent(uuid, text),
  ledger.mark_payout_paid(uuid, text),
  ledger.return_payout(uuid, text, text),
  ledger.mark_payout_failed(uuid, text),
  ledger.open_dispute(text, text, bigint),
  ledger.settle_debts(uuid, uuid),
  ledger.close_dispute(text, boolean),
  ledger.check()
  from public, anon, authenticated, service_role;

revoke all on function
  public.my_earnings(),
  public.my_pending_earnings(),
  public.my_earnings_by_session(integer),
  public.my_payouts(integer),
  public.payout_quote(bigint),
  public.request_payout(bigint, text),
  public.payouts_awaiting_review()
  from public, anon, authenticated;
grant execute on function
  public.my_earnings(),
  public.my_pending_earnings(),
  public.my_earnings_by_session(integer),
  public.my_payouts(integer),
  public.payout_quote(bigint),
  public.request_payout(bigint, text),
  public.payouts_awaiting_review()
  to authenticated;
