-- supabase/schemas/wallet.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Wallet and ledger: wallets, accounts, transfers, purchases; every coin moves by a transfer.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

-- ---------------------------------------------------------------------------
-- Wallets
-- ---------------------------------------------------------------------------
create table public.wallets (
  id uuid primary key references auth.users (id) on delete cascade,
  balance bigint not null default 0
    constraint wallets_balance_not_negative check (balance >= 0),
  updated_at timestamptz not null default now()
);
alter table public.wallets enable row level security;
-- A user's own data is read, as it is written, only by a session that proved
-- the second factor when there is one (app_private.has_assurance,
-- supabase/schemas/account.sql): an aal1 token reads nothing of theirs.
create policy "Users can read their own wallet"
  on public.wallets for select to authenticated
  using (id = (select auth.uid()) and (select app_private.has_assurance()));

-- No insert, update or delete policy and no such privilege: balances move
-- only inside security definer functions that write the ledger in the same
-- transaction.
revoke all on table public.wallets from anon, authenticated;
grant select on table public.wallets to authenticated;
grant all on table public.wallets to service_role;

create trigger wallets_set_updated_at
  before update on public.wallets
  for each row execute function public.set_updated_at();

-- Money: wallets on a double-entry ledger (docs/product.md §8).
--
-- Where the money lives
--  * ledger.accounts: one row per account that can hold coins: a user's
--    wallet, a dare's pot (escrow, for the dares work), the platform's fee
--    account, the forfeit account (balances of deleted accounts) and the
--    outside world (coins enter through purchases, so its balance is minus
--    everything bought). accounts.balance is the ledger's running balance,
--    written only by the transfer trigger below.
--  * ledger.transfers: append-only; every change of any balance is one row
--    (from, to, amount > 0, kind, reference, idempotency key, time).
--  * public.wallets.balance stays the cached balance clients read; the
--    functions below change it in the same transaction as its transfer, and a
--    deferred constraint trigger refuses to commit any transaction after
--    which a wallet's cached balance and its ledger balance differ.
--
-- The schema ledger is not exposed through the Data API (Supabase exposes
-- public and graphql_public) and the API roles get no privilege on it: not
-- usage, not a table, not a function. Browsers read their own wallet
-- (public.wallets, RLS) and their own transfers and purchases through the
-- definer functions public.wallet_transfers() and public.purchase_history().
--
-- Balances move only through ledger.transfer(), which every other money
-- function calls: idempotency key required (a repeat returns the first
-- transfer and moves nothing), positive bounded amount, conditional debit
-- (`where balance >= amount`, error-insufficient-funds), both wallets locked
-- in one order so that opposite transfers cannot deadlock.
create schema ledger;

revoke all on schema ledger from public, anon, authenticated, service_role;

-- Functions are executable by PUBLIC by default; nothing in this schema is
-- meant for anyone but its owner (the app's server connection).
alter default privileges in schema ledger revoke execute on functions from public;

-- ---------------------------------------------------------------------------
-- Accounts
-- ---------------------------------------------------------------------------
create table ledger.accounts (
  id bigint generated always as identity primary key,
  kind text not null
    constraint accounts_kind_valid check (kind in ('wallet', 'pot', 'platform_fee', 'forfeit', 'world', 'payouts')),
  -- The wallet's owner. No foreign key on purpose: the ledger keeps its rows
  -- when the account is deleted (docs/product.md §10.10).
  user_id uuid,
  -- The dare whose pot this is (the dares work adds the dares table).
  dare_id uuid,
  balance bigint not null default 0,
  created_at timestamptz not null default now(),
  constraint accounts_owner_matches_kind
    check ((kind = 'wallet') = (user_id is not null) and (kind = 'pot') = (dare_id is not null)),
  -- Only the outside world goes below zero (it is where bought coins come from).
  constraint accounts_balance_not_negative check (kind = 'world' or balance >= 0)
);
create unique index accounts_one_per_wallet on ledger.accounts (user_id) where kind = 'wallet';
create unique index accounts_one_per_pot on ledger.accounts (dare_id) where kind = 'pot';
create unique index accounts_one_per_system_kind on ledger.accounts (kind)
  where kind in ('platform_fee', 'forfeit', 'world', 'payouts');

-- Defence in depth: even a grant added by mistake would show no row.
alter table ledger.accounts enable row level security;

insert into ledger.accounts (kind) values ('world'), ('platform_fee'), ('forfeit'), ('payouts');

-- ---------------------------------------------------------------------------
-- Transfers
-- ---------------------------------------------------------------------------
create table ledger.transfers (
  id bigint generated always as identity primary key,
  from_account bigint not null references ledger.accounts (id),
  to_account bigint not null references ledger.accounts (id),
  -- Whole coins; the upper bound keeps any sum of them far from bigint's end.
  amount bigint not null
    constraint transfers_amount_valid check (amount > 0 and amount <= 1000000000),
  kind text not null
    constraint transfers_kind_valid check (kind in (
      'opening_balance', -- balances that existed before the ledger (this migration)
      'demo_grant',      -- demo wallets on the embedded default
      'purchase',        -- world -> wallet, a completed shop purchase
      'forfeit',         -- wallet -> forfeit, account deletion
      'boost',           -- wallet -> pot
      'refund',          -- pot -> wallet
      'payout',          -- pot -> creator's wallet (a creator's earnings, docs/product.md §14)
      'fee',             -- pot -> platform_fee
      'payout_request',  -- wallet -> payouts, a creator asks for their earnings (supabase/schemas/payouts.sql)
      'payout_return',   -- payouts -> wallet, a payout failed or was rejected
      'payout_paid',     -- payouts -> world, the money left through the payment provider
      'payout_fee',      -- payouts -> platform_fee, the platform's fee on a paid payout
      'clawback',        -- wallet -> world, a disputed purchase's coins taken back
      'clawback_return', -- world -> wallet, a dispute the platform won: what was taken back returns
      'debt_settlement'  -- wallet -> world, a later purchase pays what a dispute could not take
    )),
  -- What the transfer was for (a purchase id, a dare id, ...).
  reference text
    constraint transfers_reference_length check (char_length(reference) <= 200),
  -- Printable ASCII without spaces: keys are minted by the server (uuids)
  -- or composed by the functions below ('purchase:<id>').
  idempotency_key text not null
    constraint transfers_idempotency_key_format check (idempotency_key ~ '^[!-~]{8,200}$'),
  created_at timestamptz not null default now(),
  constraint transfers_distinct_accounts check (from_account <> to_account)
);
create unique index transfers_idempotency_key on ledger.transfers (idempotency_key);
create index transfers_from_account_idx on ledger.transfers (from_account, id);
create index transfers_to_account_idx on ledger.transfers (to_account, id);
alter table ledger.transfers enable row level security;

-- Append-only, for the owner too (no API role has any privilege at all).
create function ledger.refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception using message = 'error-ledger-append-only', errcode = 'P0001';
end;
$$;

create trigger transfers_append_only
  before update or delete on ledger.transfers
  for each row execute function ledger.refuse_change();

create trigger transfers_no_truncate
  before truncate on ledger.transfers
  for each statement execute function ledger.refuse_change();

-- The ledger's running balances: every inserted transfer moves them, in
-- account id order (two transfers between the same accounts lock the rows
-- in the same order). A direct update of accounts.balance is refused below,
-- so accounts.balance always equals the account's transfers.
create function ledger.apply_transfer()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  perform set_config('ledger.applying', 'on', true);
  if new.from_account < new.to_account then
    update ledger.accounts set balance = balance - new.amount where id = new.from_account;
    update ledger.accounts set balance = balance + new.amount where id = new.to_account;
  else
    update ledger.accounts set balance = balance + new.amount where id = new.to_account;
    update ledger.accounts set balance = balance - new.amount where id = new.from_account;
  end if;
  perform set_config('ledger.applying', 'off', true);
  return null;
end;
$$;

create trigger transfers_apply
  after insert on ledger.transfers
  for each row execute function ledger.apply_transfer();

create function ledger.guard_account_balance()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if new.balance is distinct from old.balance
     and coalesce(current_setting('ledger.applying', true), 'off') <> 'on' then
    raise exception using message = 'error-ledger-balance-is-derived', errcode = 'P0001';
  end if;
  if new.kind <> old.kind or new.user_id is distinct from old.user_id or new.dare_id is distinct from old.dare_id then
    raise exception using message = 'error-ledger-account-immutable', errcode = 'P0001';
  end if;
  return new;
end;
$$;

create trigger accounts_guard_balance
  before update on ledger.accounts
  for each row execute function ledger.guard_account_balance();

create trigger accounts_no_delete
  before delete on ledger.accounts
  for each row execute function ledger.refuse_change();

-- ---------------------------------------------------------------------------
-- Cached balances agree with the ledger, or the transaction does not commit
-- ---------------------------------------------------------------------------

-- Deferred to commit, so a function may change the cache and write the
-- transfer in either order; whatever the order, a transaction that leaves a
-- wallet's cached balance different from its ledger balance (a direct
-- update, a transfer without its cache change, a deleted wallet that still
-- held coins) fails with error-ledger-unbalanced and changes nothing.
create function ledger.assert_wallet_matches(p_user_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  cached bigint;
  ledgered bigint;
begin
  select w.balance into cached from public.wallets w where w.id = p_user_id;
  select a.balance into ledgered from ledger.accounts a where a.kind = 'wallet' and a.user_id = p_user_id;
  if coalesce(cached, 0) <> coalesce(ledgered, 0) then
    raise exception using
      message = 'error-ledger-unbalanced',
      errcode = 'P0001',
      detail = format('wallet %s: cached %s, ledger %s', p_user_id, coalesce(cached, 0), coalesce(ledgered, 0));
  end if;
end;
$$;

create function ledger.check_wallet_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    perform ledger.assert_wallet_matches(old.id);
  else
    perform ledger.assert_wallet_matches(new.id);
  end if;
  return null;
end;
$$;

create constraint trigger wallets_match_ledger
  after insert or update or delete on public.wallets
  deferrable initially deferred
  for each row execute function ledger.check_wallet_row();

create function ledger.check_transfer_row()
returns trigger
language plpgsql
security definer
set search_path = ''
as $$
declare
  owner uuid;
begin
  for owner in
    select a.user_id from ledger.accounts a
    where a.id in (new.from_account, new.to_account) and a.kind = 'wallet'
  loop
    perform ledger.assert_wallet_matches(owner);
  end loop;
  return null;
end;
$$;

create constraint trigger transfers_match_wallets
  after insert on ledger.transfers
  deferrable initially deferred
  for each row execute function ledger.check_transfer_row();

-- ---------------------------------------------------------------------------
-- Accounts by owner
-- ---------------------------------------------------------------------------
create function ledger.system_account(p_kind text)
returns bigint
language sql
stable
set search_path = ''
as $$
  select id from ledger.accounts where kind = p_kind and kind in ('platform_fee', 'forfeit', 'world', 'payouts');
$$;

-- The wallet's account, created on first use (wallets that existed before
-- this migration got theirs below).
create function ledger.wallet_account(p_user_id uuid)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  account bigint;
begin
  select id into account from ledger.accounts where kind = 'wallet' and user_id = p_user_id;
  if account is null then
    insert into ledger.accounts (kind, user_id) values ('wallet', p_user_id)
    on conflict (user_id) where kind = 'wallet' do nothing
    returning id into account;
    if account is null then
      select id into account from ledger.accounts where kind = 'wallet' and user_id = p_user_id;
    end if;
  end if;
  return account;
end;
$$;

create function ledger.pot_account(p_dare_id uuid)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  account bigint;
begin
  -- Looked up first: a pot is made once and boosted many times.
  select id into account from ledger.accounts where kind = 'pot' and dare_id = p_dare_id;
  if account is null then
    insert into ledger.accounts (kind, dare_id) values ('pot', p_dare_id)
    on conflict (dare_id) where kind = 'pot' do nothing
    returning id into account;
    if account is null then
      select id into account from ledger.accounts where kind = 'pot' and dare_id = p_dare_id;
    end if;
  end if;
  return account;
end;
$$;

-- ---------------------------------------------------------------------------
-- The one way balances move
-- ---------------------------------------------------------------------------
create function ledger.transfer(
  p_from bigint,
  p_to bigint,
  p_amount bigint,
  p_kind text,
  p_reference text,
  p_idempotency_key text
)
returns table (transfer_id bigint, replayed boolean)
language plpgsql
set search_path = ''
as $$
declare
  existing ledger.transfers;
  from_kind text;
  from_user uuid;
  to_kind text;
  to_user uuid;
  new_id bigint;
begin
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,200}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  if p_amount is null or p_amount <= 0 or p_amount > 1000000000 then
    raise exception using message = 'error-invalid-amount', errcode = 'P0001';
  end if;
  if p_from is null or p_to is null or p_from = p_to then
    raise exception using message = 'error-invalid-transfer', errcode = 'P0001';
  end if;

  -- 0x6c656467 = 'ledg': a namespace of its own for these advisory locks.
  perform pg_advisory_xact_lock(1818584167, hashtext(p_idempotency_key));

  select * into existing from ledger.transfers t where t.idempotency_key = p_idempotency_key;
  if found then
    if existing.from_account <> p_from or existing.to_account <> p_to or existing.amount <> p_amount
       or existing.kind <> p_kind then
      raise exception using message = 'error-idempotency-key-reused', errcode = 'P0001';
    end if;
    return query select existing.id, true;
    return;
  end if;

  select a.kind, a.user_id into from_kind, from_user from ledger.accounts a where a.id = p_from;
  select a.kind, a.user_id into to_kind, to_user from ledger.accounts a where a.id = p_to;
  if from_kind is null or to_kind is null then
    raise exception using message = 'error-invalid-transfer', errcode = 'P0001';
  end if;

  -- Both wallets locked up front, in user id order.
  perform 1 from public.wallets w
  where w.id in (from_user, to_user)
  order by w.id
  for update;

  -- A buyer whose purchase is disputed may not spend (docs/product.md §14.6).
  if from_kind = 'wallet' and p_kind in ('boost', 'payout_request') and ledger.spending_restricted(from_user) then
    raise exception using message = 'error-spending-restricted', errcode = 'P0001';
  end if;

  if from_kind = 'wallet' then
    update public.wallets set balance = balance - p_amount
    where id = from_user and balance >= p_amount;
    if not found then
      if exists (select 1 from public.wallets where id = from_user) then
        raise exception using message = 'error-insufficient-funds', errcode = 'P0001';
      end if;
      raise exception using message = 'error-wallet-not-found', errcode = 'P0001';
    end if;
  elsif from_kind <> 'world' then
    -- A pot (or the fee or forfeit account): both accounts locked now, in
    -- the id order and at the strength (no key update) the transfer trigger
    -- takes them with, and the balance read under the lock, so a concurrent
    -- debit of the same account is seen.
    perform 1 from ledger.accounts a where a.id in (p_from, p_to) order by a.id for no key update;
    if (select a.balance from ledger.accounts a where a.id = p_from) < p_amount then
      raise exception using message = 'error-insufficient-funds', errcode = 'P0001';
    end if;
  end if;

  if to_kind = 'wallet' then
    update public.wallets set balance = balance + p_amount where id = to_user;
    if not found then
      raise exception using message = 'error-wallet-not-found', errcode = 'P0001';
    end if;
  end if;

  insert into ledger.transfers (from_account, to_account, amount, kind, reference, idempotency_key)
  values (p_from, p_to, p_amount, p_kind, p_reference, p_idempotency_key)
  returning id into new_id;

  return query select new_id, false;
end;
$$;

-- ---------------------------------------------------------------------------
-- Purchases (the shop)
-- ---------------------------------------------------------------------------

-- One row per checkout: pending until paid, then completed together with its
-- purchase transfer. Packs and prices come from the operator's configuration
-- (the app); the row records what was sold. Kept when the account is deleted
-- (bookkeeping), like the transfers.
create table ledger.purchases (
  id uuid primary key default gen_random_uuid(),
  user_id uuid not null,
  idempotency_key text not null
    constraint purchases_idempotency_key_format check (idempotency_key ~ '^[!-~]{8,200}$'),
  pack_id text not null
    constraint purchases_pack_id_format check (pack_id ~ '^[a-z0-9_-]{1,32}$'),
  coins bigint not null
    constraint purchases_coins_valid check (coins > 0 and coins <= 10000000),
  -- The price in the currency's minor unit (cents).
  amount_minor bigint not null
    constraint purchases_amount_valid check (amount_minor >= 0 and amount_minor <= 100000000),
  currency text not null
    constraint purchases_currency_format check (currency ~ '^[A-Z]{3}$'),
  provider text not null
    constraint purchases_provider_valid check (provider in ('test', 'stripe')),
  checkout_session_id text
    constraint purchases_checkout_session_id_format check (checkout_session_id ~ '^[!-~]{1,255}$'),
  -- The payment behind a completed Stripe purchase: a dispute names it (docs/product.md §14.6).
  payment_intent_id text
    constraint purchases_payment_intent_id_format check (payment_intent_id ~ '^[!-~]{1,255}$'),
  status text not null default 'pending'
    constraint purchases_status_valid check (status in ('pending', 'completed')),
  transfer_id bigint references ledger.transfers (id),
  created_at timestamptz not null default now(),
  completed_at timestamptz,
  constraint purchases_completed_has_transfer
    check ((status = 'completed') = (transfer_id is not null and completed_at is not null))
);
create unique index purchases_user_key on ledger.purchases (user_id, idempotency_key);
create unique index purchases_checkout_session on ledger.purchases (checkout_session_id);
create index purchases_payment_intent on ledger.purchases (payment_intent_id) where payment_intent_id is not null;
create index purchases_user_latest_idx on ledger.purchases (user_id, created_at desc);
alter table ledger.purchases enable row level security;

-- Starts a purchase for the caller (auth.uid(): the server runs this with
-- the signed-in user's claims). Two-factor users need aal2. The same key
-- returns the caller's existing purchase; the same key for another pack is
-- error-idempotency-key-reused.
create function ledger.create_purchase(
  p_pack_id text,
  p_coins bigint,
  p_amount_minor bigint,
  p_currency text,
  p_provider text,
  p_idempotency_key text
)
returns ledger.purchases
language plpgsql
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  purchase ledger.purchases;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  if p_coins is null or p_coins <= 0 or p_coins > 10000000
     or p_amount_minor is null or p_amount_minor < 0 or p_amount_minor > 100000000 then
    raise exception using message = 'error-invalid-amount', errcode = 'P0001';
  end if;
  if not exists (select 1 from public.wallets where id = caller) then
    raise exception using message = 'error-wallet-not-found', errcode = 'P0001';
  end if;

  insert into ledger.purchases (user_id, idempotency_key, pack_id, coins, amount_minor, currency, provider)
  values (caller, p_idempotency_key, p_pack_id, p_coins, p_amount_minor, p_currency, p_provider)
  on conflict (user_id, idempotency_key) do nothing
  returning * into purchase;

  if purchase.id is null then
    select * into purchase from ledger.purchases p where p.user_id = caller and p.idempotency_key = p_idempotency_key;
    if purchase.pack_id <> p_pack_id or purchase.coins <> p_coins or purchase.amount_minor <> p_amount_minor
       or purchase.currency <> p_currency or purchase.provider <> p_provider then
      raise exception using message = 'error-idempotency-key-reused', errcode = 'P0001';
    end if;
  end if;
  return purchase;
end;
$$;

-- Records the Stripe Checkout session of a pending purchase (once).
create function ledger.set_checkout_session(p_purchase_id uuid, p_session_id text)
returns void
language plpgsql
set search_path = ''
as $$
begin
  update ledger.purchases set checkout_session_id = p_session_id
  where id = p_purchase_id and provider = 'stripe'
    and (checkout_session_id is null or checkout_session_id = p_session_id);
  if not found then
    raise exception using message = 'error-invalid-purchase', errcode = 'P0001';
  end if;
end;
$$;

-- Credits a purchase, exactly once: the purchase row is locked, and a
-- completed one returns credited = false. The credit's own key
-- ('purchase:<id>') would stop a second one anyway. A purchase whose
-- account has since been deleted is not credited (user_deleted = true); the
-- operator refunds it with the payment provider.
create function ledger.complete_purchase(p_purchase_id uuid)
returns table (purchase_id uuid, user_id uuid, coins bigint, credited boolean, user_deleted boolean, balance bigint)
language plpgsql
set search_path = ''
as $$
declare
  purchase ledger.purchases;
  moved bigint;
begin
  select * into purchase from ledger.purchases p where p.id = p_purchase_id for update;
  if not found then
    raise exception using message = 'error-invalid-purchase', errcode = 'P0001';
  end if;
  if purchase.status = 'completed' then
    return query select purchase.id, purchase.user_id, purchase.coins, false, false,
      (select w.balance from public.wallets w where w.id = purchase.user_id);
    return;
  end if;
  if not exists (select 1 from public.wallets w where w.id = purchase.user_id) then
    return query select purchase.id, purchase.user_id, purchase.coins, false, true, null::bigint;
    return;
  end if;

  select t.transfer_id into moved from ledger.transfer(
    ledger.system_account('world'),
    ledger.wallet_account(purchase.user_id),
    purchase.coins,
    'purchase',
    purchase.id::text,
    'purchase:' || purchase.id::text
  ) t;

  update ledger.purchases set status = 'completed', transfer_id = moved, completed_at = now()
  where id = purchase.id;
  -- What a dispute could not take back is paid first (docs/product.md §14.6).
  perform ledger.settle_debts(purchase.user_id, purchase.id);

  return query select purchase.id, purchase.user_id, purchase.coins, true, false,
    (select w.balance from public.wallets w where w.id = purchase.user_id);
end;
$$;

-- The Stripe webhook's entry: credits the purchase of a checkout session,
-- and records the payment a later dispute will name. No purchase for an
-- unknown session (the webhook logs and acknowledges it).
create function ledger.complete_checkout_session(p_session_id text, p_payment_intent text default null)
returns table (purchase_id uuid, user_id uuid, coins bigint, credited boolean, user_deleted boolean, balance bigint)
language plpgsql
set search_path = ''
as $$
declare
  found_id uuid;
begin
  select p.id into found_id from ledger.purchases p where p.checkout_session_id = p_session_id;
  if found_id is null then
    return;
  end if;
  if p_payment_intent is not null then
    update ledger.purchases set payment_intent_id = p_payment_intent
    where id = found_id and payment_intent_id is null;
  end if;
  return query select * from ledger.complete_purchase(found_id);
end;
$$;

-- Coins for the demo accounts of the embedded default (app/db/seed.server.ts).
create function ledger.grant_demo_coins(p_user_id uuid, p_amount bigint)
returns table (transfer_id bigint, replayed boolean)
language sql
set search_path = ''
as $$
  select * from ledger.transfer(
    ledger.system_account('world'),
    ledger.wallet_account(p_user_id),
    p_amount,
    'demo_grant',
    null,
    'demo-grant:' || p_user_id::text
  );
$$;

-- ---------------------------------------------------------------------------
-- Account deletion
-- ---------------------------------------------------------------------------

-- Moves what is left in a wallet to the forfeit account. The key is the
-- user's: an account is deleted once.
create function ledger.forfeit_wallet(p_user_id uuid)
returns bigint
language plpgsql
set search_path = ''
as $$
declare
  left_over bigint;
begin
  select w.balance into left_over from public.wallets w where w.id = p_user_id for update;
  if left_over is null or left_over = 0 then
    return 0;
  end if;
  perform ledger.transfer(
    ledger.wallet_account(p_user_id),
    ledger.system_account('forfeit'),
    left_over,
    'forfeit',
    p_user_id::text,
    'forfeit:' || p_user_id::text
  );
  return left_over;
end;
$$;

-- Before a user's auth.users row goes (the row is already held): their live
-- session, then the running dares of their sessions and those they wrote (the
-- cascade sets their author to null), then the wallets the refunds credit
-- together with their own (forfeited next, in before_user_delete), each group
-- in id order. Their sessions' dares end at once and are refunded; their own
-- boosts on other creators' dares stay in those pots and are settled when the
-- dare is (a refund then goes to the forfeit account).
create function app_private.stop_sessions_of_deleted_user(p_user_id uuid)
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
revoke all on function app_private.stop_sessions_of_deleted_user(uuid) from public, anon, authenticated, service_role;

revoke all on function app_private.before_user_delete() from public, anon, authenticated, service_role;

-- The hardening creates this trigger too; whichever migration runs first
-- creates it, the other finds it.
do $$
begin
  if not exists (
    select 1 from pg_catalog.pg_trigger t
    where t.tgrelid = 'auth.users'::regclass
      and t.tgfoid = 'app_private.before_user_delete()'::regprocedure
      and not t.tgisinternal
  ) then
    create trigger before_user_delete
      before delete on auth.users
      for each row execute function app_private.before_user_delete();
  end if;
end
$$;

-- ---------------------------------------------------------------------------
-- What browsers may read: their own transfers and purchases
-- ---------------------------------------------------------------------------

-- The caller's transfers, newest first; amount is signed from their side
-- (+ in, - out).
create function public.wallet_transfers(p_limit integer default 50)
returns table (id bigint, created_at timestamptz, kind text, amount bigint, reference text)
language sql
stable
security definer
set search_path = ''
as $$
  select t.id, t.created_at, t.kind,
    case when t.to_account = a.id then t.amount else -t.amount end,
    t.reference
  from ledger.accounts a
  join ledger.transfers t on t.to_account = a.id or t.from_account = a.id
  where a.kind = 'wallet' and a.user_id = (select auth.uid()) and (select app_private.has_assurance())
  order by t.id desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$$;
revoke all on function public.wallet_transfers(integer) from public, anon, authenticated;
grant execute on function public.wallet_transfers(integer) to authenticated, service_role;

create function public.purchase_history(p_limit integer default 50)
returns table (
  id uuid,
  created_at timestamptz,
  pack_id text,
  coins bigint,
  amount_minor bigint,
  currency text,
  provider text,
  status text,
  completed_at timestamptz
)
language sql
stable
security definer
set search_path = ''
as $$
  select p.id, p.created_at, p.pack_id, p.coins, p.amount_minor, p.currency, p.provider, p.status, p.completed_at
  from ledger.purchases p
  where p.user_id = (select auth.uid()) and (select app_private.has_assurance())
  order by p.created_at desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$$;
revoke all on function public.purchase_history(integer) from public, anon, authenticated;
grant execute on function public.purchase_history(integer) to authenticated, service_role;

-- The invariant (ledger.check) is at the end of supabase/schemas/payouts.sql:
-- it covers the payouts account as well.

-- ---------------------------------------------------------------------------
-- Privileges
-- ---------------------------------------------------------------------------
revoke all on all tables in schema ledger from public, anon, authenticated, service_role;

revoke all on all sequences in schema ledger from public, anon, authenticated, service_role;

revoke all on all functions in schema ledger from public, anon, authenticated, service_role;
