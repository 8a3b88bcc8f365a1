-- A debit of an account that is not a wallet (a dare's pot, the fee or the
-- forfeit account) read the account's balance without a lock: two debits of
-- one pot, each to another wallet, could both pass the check, and the second
-- then failed on accounts_balance_not_negative (23514) instead of
-- error-insufficient-funds. Nothing was ever moved wrongly (the constraint
-- refused it), but the caller got an internal error. Found by the wallet
-- property test on Postgres (seed 577913904); the dares' own settling locks
-- the dare first and never hit it. tests/sql/wallet.test.ts, "two concurrent
-- debits of one pot", failed before this change.
--
-- ledger.transfer() is otherwise unchanged: it now locks both accounts in id
-- order (the order its trigger locks them in, after the wallets as before)
-- before it reads a non-wallet balance.

create or replace function ledger.transfer(
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
