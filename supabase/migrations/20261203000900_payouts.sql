-- Creators get paid (issue 27, docs/product.md §14): the payouts account and
-- transfer kinds, payout accounts, payouts, disputes, the settings the app
-- writes at start-up, the operators' payout decisions, and ledger.check()
-- covering the payouts account; a rejected payout may be appealed
-- (app_private.appealable); app_private.assert_not_suspended, one check
-- for what sessions and dares both refused. Written by npm run db:diff from
-- supabase/schemas; the payouts account's row and the privileges at the end.

alter table "app_private"."moderation_decisions" drop constraint "moderation_decisions_action_valid";

alter table "ledger"."accounts" drop constraint "accounts_kind_valid";

alter table "ledger"."transfers" drop constraint "transfers_kind_valid";

drop function if exists "ledger"."complete_checkout_session"(p_session_id text);

drop index if exists "ledger"."accounts_one_per_system_kind";


  create table "ledger"."disputes" (
    "id" text not null,
    "purchase_id" uuid not null,
    "user_id" uuid not null,
    "coins" bigint not null,
    "status" text not null default 'open'::text,
    "created_at" timestamp with time zone not null default now(),
    "closed_at" timestamp with time zone,
    "cleared_at" timestamp with time zone
      );


alter table "ledger"."disputes" enable row level security;


  create table "ledger"."payout_accounts" (
    "user_id" uuid not null,
    "provider" text not null,
    "external_id" text not null,
    "country" text not null,
    "status" text not null,
    "requirements" text[] not null default '{}'::text[],
    "disabled_reason" text,
    "created_at" timestamp with time zone not null default now(),
    "updated_at" timestamp with time zone not null default now()
      );


alter table "ledger"."payout_accounts" enable row level security;


  create table "ledger"."payouts" (
    "id" uuid not null default gen_random_uuid(),
    "user_id" uuid not null,
    "idempotency_key" text not null,
    "coins" bigint not null,
    "fee_coins" bigint not null,
    "amount_minor" bigint not null,
    "currency" text not null,
    "cents_per_coin" numeric(10,4) not null,
    "status" text not null,
    "needs_review" boolean not null,
    "provider" text not null,
    "external_account" text not null,
    "provider_transfer_id" text,
    "failure_reason" text,
    "created_at" timestamp with time zone not null default now(),
    "decided_at" timestamp with time zone,
    "sent_at" timestamp with time zone,
    "paid_at" timestamp with time zone,
    "failed_at" timestamp with time zone
      );


alter table "ledger"."payouts" enable row level security;

alter table "app_private"."moderation_decisions" add column "payout_id" uuid;

alter table "ledger"."purchases" add column "payment_intent_id" text;

alter table "ledger"."settings" add column "payout_cents_per_coin" numeric(10,4) not null default 0.7;

alter table "ledger"."settings" add column "payout_currency" text not null default 'EUR'::text;

alter table "ledger"."settings" add column "payout_fee_basis_points" integer not null default 0;

alter table "ledger"."settings" add column "payout_hold_days" integer not null default 14;

alter table "ledger"."settings" add column "payout_min_coins" bigint not null default 2000;

alter table "ledger"."settings" add column "payout_review_coins" bigint not null default 20000;

CREATE UNIQUE INDEX disputes_pkey ON ledger.disputes USING btree (id);

CREATE INDEX disputes_restricting ON ledger.disputes USING btree (user_id) WHERE ((status = 'open'::text) OR ((status = 'lost'::text) AND (cleared_at IS NULL)));

CREATE INDEX disputes_user_idx ON ledger.disputes USING btree (user_id, created_at);

CREATE UNIQUE INDEX payout_accounts_external_id ON ledger.payout_accounts USING btree (external_id);

CREATE UNIQUE INDEX payout_accounts_pkey ON ledger.payout_accounts USING btree (user_id);

CREATE UNIQUE INDEX payouts_pkey ON ledger.payouts USING btree (id);

CREATE UNIQUE INDEX payouts_provider_transfer ON ledger.payouts USING btree (provider_transfer_id);

CREATE INDEX payouts_under_way_idx ON ledger.payouts USING btree (status, created_at) WHERE (status = ANY (ARRAY['review'::text, 'approved'::text, 'sent'::text]));

CREATE UNIQUE INDEX payouts_user_key ON ledger.payouts USING btree (user_id, idempotency_key);

CREATE INDEX payouts_user_latest_idx ON ledger.payouts USING btree (user_id, created_at DESC);

CREATE INDEX purchases_payment_intent ON ledger.purchases USING btree (payment_intent_id) WHERE (payment_intent_id IS NOT NULL);

CREATE INDEX transfers_dispute_reference ON ledger.transfers USING btree (reference) WHERE (kind = ANY (ARRAY['clawback'::text, 'debt_settlement'::text, 'clawback_return'::text]));

CREATE UNIQUE INDEX accounts_one_per_system_kind ON ledger.accounts USING btree (kind) WHERE (kind = ANY (ARRAY['platform_fee'::text, 'forfeit'::text, 'world'::text, 'payouts'::text]));

alter table "ledger"."disputes" add constraint "disputes_pkey" PRIMARY KEY using index "disputes_pkey";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_pkey" PRIMARY KEY using index "payout_accounts_pkey";

alter table "ledger"."payouts" add constraint "payouts_pkey" PRIMARY KEY using index "payouts_pkey";

alter table "ledger"."disputes" add constraint "disputes_coins_valid" CHECK (((coins > 0) AND (coins <= 10000000))) not valid;

alter table "ledger"."disputes" validate constraint "disputes_coins_valid";

alter table "ledger"."disputes" add constraint "disputes_id_format" CHECK ((id ~ '^[!-~]{1,200}$'::text)) not valid;

alter table "ledger"."disputes" validate constraint "disputes_id_format";

alter table "ledger"."disputes" add constraint "disputes_purchase_id_fkey" FOREIGN KEY (purchase_id) REFERENCES ledger.purchases(id) not valid;

alter table "ledger"."disputes" validate constraint "disputes_purchase_id_fkey";

alter table "ledger"."disputes" add constraint "disputes_status_valid" CHECK ((status = ANY (ARRAY['open'::text, 'won'::text, 'lost'::text]))) not valid;

alter table "ledger"."disputes" validate constraint "disputes_status_valid";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_country_format" CHECK ((country ~ '^[A-Z]{2}$'::text)) not valid;

alter table "ledger"."payout_accounts" validate constraint "payout_accounts_country_format";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_disabled_reason_length" CHECK ((char_length(disabled_reason) <= 500)) not valid;

alter table "ledger"."payout_accounts" validate constraint "payout_accounts_disabled_reason_length";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_external_id_format" CHECK ((external_id ~ '^[!-~]{1,255}$'::text)) not valid;

alter table "ledger"."payout_accounts" validate constraint "payout_accounts_external_id_format";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_provider_valid" CHECK ((provider = ANY (ARRAY['stripe'::text, 'test'::text]))) not valid;

alter table "ledger"."payout_accounts" validate constraint "payout_accounts_provider_valid";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_status_valid" CHECK ((status = ANY (ARRAY['onboarding'::text, 'ready'::text, 'restricted'::text]))) not valid;

alter table "ledger"."payout_accounts" validate constraint "payout_accounts_status_valid";

alter table "ledger"."payout_accounts" add constraint "payout_accounts_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "ledger"."payout_accounts" validate constraint "payout_accounts_user_id_fkey";

alter table "ledger"."payouts" add constraint "payouts_amount_valid" CHECK ((amount_minor >= 0)) not valid;

alter table "ledger"."payouts" validate constraint "payouts_amount_valid";

alter table "ledger"."payouts" add constraint "payouts_coins_valid" CHECK (((coins > 0) AND (coins <= 1000000000))) not valid;

alter table "ledger"."payouts" validate constraint "payouts_coins_valid";

alter table "ledger"."payouts" add constraint "payouts_currency_format" CHECK ((currency ~ '^[A-Z]{3}$'::text)) not valid;

alter table "ledger"."payouts" validate constraint "payouts_currency_format";

alter table "ledger"."payouts" add constraint "payouts_failure_reason_length" CHECK ((char_length(failure_reason) <= 2000)) not valid;

alter table "ledger"."payouts" validate constraint "payouts_failure_reason_length";

alter table "ledger"."payouts" add constraint "payouts_fee_valid" CHECK (((fee_coins >= 0) AND (fee_coins <= coins))) not valid;

alter table "ledger"."payouts" validate constraint "payouts_fee_valid";

alter table "ledger"."payouts" add constraint "payouts_idempotency_key_format" CHECK ((idempotency_key ~ '^[!-~]{8,200}$'::text)) not valid;

alter table "ledger"."payouts" validate constraint "payouts_idempotency_key_format";

alter table "ledger"."payouts" add constraint "payouts_provider_transfer_format" CHECK ((provider_transfer_id ~ '^[!-~]{1,255}$'::text)) not valid;

alter table "ledger"."payouts" validate constraint "payouts_provider_transfer_format";

alter table "ledger"."payouts" add constraint "payouts_provider_valid" CHECK ((provider = ANY (ARRAY['stripe'::text, 'test'::text]))) not valid;

alter table "ledger"."payouts" validate constraint "payouts_provider_valid";

alter table "ledger"."payouts" add constraint "payouts_status_valid" CHECK ((status = ANY (ARRAY['review'::text, 'approved'::text, 'sent'::text, 'paid'::text, 'failed'::text, 'rejected'::text]))) not valid;

alter table "ledger"."payouts" validate constraint "payouts_status_valid";

alter table "ledger"."purchases" add constraint "purchases_payment_intent_id_format" CHECK ((payment_intent_id ~ '^[!-~]{1,255}$'::text)) not valid;

alter table "ledger"."purchases" validate constraint "purchases_payment_intent_id_format";

alter table "ledger"."settings" add constraint "settings_payout_currency_format" CHECK ((payout_currency ~ '^[A-Z]{3}$'::text)) not valid;

alter table "ledger"."settings" validate constraint "settings_payout_currency_format";

alter table "ledger"."settings" add constraint "settings_payout_fee_valid" CHECK (((payout_fee_basis_points >= 0) AND (payout_fee_basis_points <= 10000))) not valid;

alter table "ledger"."settings" validate constraint "settings_payout_fee_valid";

alter table "ledger"."settings" add constraint "settings_payout_hold_valid" CHECK (((payout_hold_days >= 0) AND (payout_hold_days <= 365))) not valid;

alter table "ledger"."settings" validate constraint "settings_payout_hold_valid";

alter table "ledger"."settings" add constraint "settings_payout_min_valid" CHECK (((payout_min_coins >= 1) AND (payout_min_coins <= 1000000000))) not valid;

alter table "ledger"."settings" validate constraint "settings_payout_min_valid";

alter table "ledger"."settings" add constraint "settings_payout_rate_valid" CHECK (((payout_cents_per_coin > (0)::numeric) AND (payout_cents_per_coin <= (1000)::numeric))) not valid;

alter table "ledger"."settings" validate constraint "settings_payout_rate_valid";

alter table "ledger"."settings" add constraint "settings_payout_review_valid" CHECK (((payout_review_coins >= 0) AND (payout_review_coins <= 1000000000))) not valid;

alter table "ledger"."settings" validate constraint "settings_payout_review_valid";

alter table "app_private"."moderation_decisions" add constraint "moderation_decisions_action_valid" CHECK ((action = ANY (ARRAY['remove_dare'::text, 'dismiss_report'::text, 'approve_dare'::text, 'suspend_user'::text, 'restrict_payouts'::text, 'reinstate_user'::text, 'appeal_upheld'::text, 'appeal_granted'::text, 'approve_payout'::text, 'reject_payout'::text]))) not valid;

alter table "app_private"."moderation_decisions" validate constraint "moderation_decisions_action_valid";

alter table "ledger"."accounts" add constraint "accounts_kind_valid" CHECK ((kind = ANY (ARRAY['wallet'::text, 'pot'::text, 'platform_fee'::text, 'forfeit'::text, 'world'::text, 'payouts'::text]))) not valid;

alter table "ledger"."accounts" validate constraint "accounts_kind_valid";

alter table "ledger"."transfers" add constraint "transfers_kind_valid" CHECK ((kind = ANY (ARRAY['opening_balance'::text, 'demo_grant'::text, 'purchase'::text, 'forfeit'::text, 'boost'::text, 'refund'::text, 'payout'::text, 'fee'::text, 'payout_request'::text, 'payout_return'::text, 'payout_paid'::text, 'payout_fee'::text, 'clawback'::text, 'clawback_return'::text, 'debt_settlement'::text]))) not valid;

alter table "ledger"."transfers" validate constraint "transfers_kind_valid";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION app_private.appealable(p_action text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
 SET search_path TO ''
AS $function$
  select p_action in ('remove_dare', 'suspend_user', 'restrict_payouts', 'reject_payout');
$function$
;

CREATE OR REPLACE FUNCTION app_private.assert_not_suspended(p_user uuid)
 RETURNS void
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  if exists (select 1 from app_private.account_restrictions r where r.user_id = p_user and r.suspended_at is not null) then
    raise exception using message = 'error-account-suspended', errcode = 'P0001';
  end if;
end;
$function$
;

CREATE OR REPLACE FUNCTION ledger.close_dispute(p_dispute_id text, p_won boolean)
 RETURNS TABLE(user_id uuid, restored bigint, changed boolean)
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.complete_checkout_session(p_session_id text, p_payment_intent text DEFAULT NULL::text)
 RETURNS TABLE(purchase_id uuid, user_id uuid, coins bigint, credited boolean, user_deleted boolean, balance bigint)
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.dispute_outstanding(p_dispute text)
 RETURNS bigint
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select case when d.status = 'won' then 0 else d.coins - coalesce((
    select sum(t.amount) from ledger.transfers t
    where t.reference = d.id and t.kind in ('clawback', 'debt_settlement')
  ), 0) end::bigint
  from ledger.disputes d where d.id = p_dispute;
$function$
;

CREATE OR REPLACE FUNCTION ledger.first_payout(p_user uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select not exists (select 1 from ledger.payouts p where p.user_id = p_user and p.status in ('approved', 'sent', 'paid'));
$function$
;

CREATE OR REPLACE FUNCTION ledger.mark_payout_failed(p_payout uuid, p_reason text)
 RETURNS TABLE(changed boolean, user_id uuid, email text, language text)
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  select r.changed, p.user_id, u.email::text, coalesce(pr.language, 'en')
  from (select ledger.return_payout(p_payout, 'failed', p_reason) as changed) r
  join ledger.payouts p on p.id = p_payout
  left join auth.users u on u.id = p.user_id
  left join public.profiles pr on pr.id = p.user_id;
$function$
;

CREATE OR REPLACE FUNCTION ledger.mark_payout_paid(p_payout uuid, p_transfer text DEFAULT NULL::text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.mark_payout_sent(p_payout uuid, p_transfer text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  update ledger.payouts set status = 'sent', provider_transfer_id = p_transfer, sent_at = now()
  where id = p_payout and status = 'approved';
  return found;
end;
$function$
;

CREATE OR REPLACE FUNCTION ledger.open_dispute(p_dispute_id text, p_payment_intent text, p_amount_minor bigint)
 RETURNS TABLE(user_id uuid, coins bigint, clawed_back bigint, debt bigint, opened boolean)
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.payout_by_transfer(p_transfer text)
 RETURNS uuid
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select p.id from ledger.payouts p where p.provider_transfer_id = p_transfer;
$function$
;

CREATE OR REPLACE FUNCTION ledger.payout_conversion(p_coins bigint)
 RETURNS TABLE(coins bigint, fee_coins bigint, amount_minor bigint, currency text, cents_per_coin numeric)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select p_coins, f.fee, floor((p_coins - f.fee) * s.payout_cents_per_coin)::bigint, s.payout_currency,
    s.payout_cents_per_coin
  from ledger.settings s
  cross join lateral (select (p_coins * s.payout_fee_basis_points / 10000)::bigint as fee) f;
$function$
;

CREATE OR REPLACE FUNCTION ledger.payout_standing(p_user uuid)
 RETURNS TABLE(balance bigint, earned bigint, pending bigint, available bigint, in_payout bigint, paid_out bigint, debt bigint, is_creator boolean, payouts_restricted boolean, spending_restricted boolean, account_status text, blockers text[])
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.payouts_to_send(p_limit integer)
 RETURNS TABLE(id uuid, user_id uuid, coins bigint, fee_coins bigint, amount_minor bigint, currency text, provider text, external_account text)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select p.id, p.user_id, p.coins, p.fee_coins, p.amount_minor, p.currency, p.provider, p.external_account
  from ledger.payouts p
  where (p.status = 'approved' or (p.status = 'sent' and p.sent_at < now() - interval '1 minute'))
    and not exists (
      select 1 from app_private.account_restrictions r where r.user_id = p.user_id and r.payouts_restricted_at is not null
    )
    and not ledger.spending_restricted(p.user_id)
  order by p.created_at
  limit least(greatest(coalesce(p_limit, 20), 1), 500);
$function$
;

CREATE OR REPLACE FUNCTION ledger.return_payout(p_payout uuid, p_status text, p_reason text)
 RETURNS boolean
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.save_payout_account(p_user uuid, p_provider text, p_external_id text, p_country text, p_status text, p_requirements text[], p_disabled_reason text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.set_payout_settings(p_hold_days integer, p_min_coins bigint, p_review_coins bigint, p_cents_per_coin numeric, p_fee_basis_points integer, p_currency text)
 RETURNS void
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  update ledger.settings set
    payout_hold_days = p_hold_days,
    payout_min_coins = p_min_coins,
    payout_review_coins = p_review_coins,
    payout_cents_per_coin = p_cents_per_coin,
    payout_fee_basis_points = p_fee_basis_points,
    payout_currency = p_currency;
$function$
;

CREATE OR REPLACE FUNCTION ledger.settle_debts(p_user uuid, p_purchase uuid)
 RETURNS bigint
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.spending_restricted(p_user uuid)
 RETURNS boolean
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select exists (
    select 1 from ledger.disputes d
    where d.user_id = p_user and (d.status = 'open' or (d.status = 'lost' and d.cleared_at is null))
  );
$function$
;

CREATE OR REPLACE FUNCTION public.my_earnings()
 RETURNS TABLE(balance bigint, earned bigint, pending bigint, available bigint, in_payout bigint, paid_out bigint, debt bigint, hold_days integer, min_coins bigint, review_coins bigint, cents_per_coin numeric, fee_basis_points integer, currency text, account_status text, account_requirements text[], account_country text, account_disabled_reason text, payouts_restricted boolean, spending_restricted boolean, is_creator boolean, blockers text[])
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select p.balance, p.earned, p.pending, p.available, p.in_payout, p.paid_out, p.debt,
    s.payout_hold_days, s.payout_min_coins, s.payout_review_coins, s.payout_cents_per_coin,
    s.payout_fee_basis_points, s.payout_currency,
    p.account_status, coalesce(pa.requirements, '{}'), pa.country, pa.disabled_reason,
    p.payouts_restricted, p.spending_restricted, p.is_creator, p.blockers
  from ledger.payout_standing((select auth.uid())) p
  cross join ledger.settings s
  left join ledger.payout_accounts pa on pa.user_id = (select auth.uid())
  where (select auth.uid()) is not null and (select app_private.has_assurance());
$function$
;

CREATE OR REPLACE FUNCTION public.my_earnings_by_session(p_limit integer DEFAULT 50)
 RETURNS TABLE(session_id uuid, title text, started_at timestamp with time zone, ended_at timestamp with time zone, coins bigint, dares integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select s.id, s.title, s.created_at, s.ended_at, sum(t.amount)::bigint, count(*)::integer
  from ledger.accounts a
  join ledger.transfers t on t.to_account = a.id and t.kind = 'payout'
  join public.dares d on d.id::text = t.reference
  join public.sessions s on s.id = d.session_id
  where a.kind = 'wallet' and a.user_id = (select auth.uid()) and (select app_private.has_assurance())
  group by s.id
  order by s.created_at desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$function$
;

CREATE OR REPLACE FUNCTION public.my_payouts(p_limit integer DEFAULT 50)
 RETURNS TABLE(id uuid, created_at timestamp with time zone, coins bigint, fee_coins bigint, amount_minor bigint, currency text, status text, needs_review boolean, failure_reason text, paid_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select p.id, p.created_at, p.coins, p.fee_coins, p.amount_minor, p.currency, p.status, p.needs_review,
    p.failure_reason, p.paid_at
  from ledger.payouts p
  where p.user_id = (select auth.uid()) and (select app_private.has_assurance())
  order by p.created_at desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$function$
;

CREATE OR REPLACE FUNCTION public.my_pending_earnings()
 RETURNS TABLE(matures_at timestamp with time zone, coins bigint)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select t.created_at + make_interval(days => s.payout_hold_days), t.amount
  from ledger.accounts a
  join ledger.transfers t on t.to_account = a.id and t.kind = 'payout'
  cross join ledger.settings s
  where a.kind = 'wallet' and a.user_id = (select auth.uid()) and (select app_private.has_assurance())
    and t.created_at > now() - make_interval(days => s.payout_hold_days)
  order by t.id;
$function$
;

CREATE OR REPLACE FUNCTION public.payout_quote(p_coins bigint)
 RETURNS TABLE(coins bigint, fee_coins bigint, amount_minor bigint, currency text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select c.coins, c.fee_coins, c.amount_minor, c.currency
  from ledger.payout_conversion(p_coins) c
  where (select auth.uid()) is not null and p_coins > 0 and p_coins <= 1000000000;
$function$
;

CREATE OR REPLACE FUNCTION public.payouts_awaiting_review()
 RETURNS TABLE(id uuid, user_id uuid, username text, coins bigint, amount_minor bigint, currency text, created_at timestamp with time zone, first_payout boolean, earned bigint, account_country text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select p.id, p.user_id, pr.username, p.coins, p.amount_minor, p.currency, p.created_at,
    ledger.first_payout(p.user_id),
    (select st.earned from ledger.payout_standing(p.user_id) st),
    pa.country
  from ledger.payouts p
  left join public.profiles pr on pr.id = p.user_id
  left join ledger.payout_accounts pa on pa.user_id = p.user_id
  where p.status = 'review' and app_private.is_operator()
  order by p.created_at;
$function$
;

CREATE OR REPLACE FUNCTION public.request_payout(p_coins bigint, p_idempotency_key text)
 RETURNS TABLE(id uuid, status text, coins bigint, fee_coins bigint, amount_minor bigint, currency text, replayed boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION app_private.assert_participant()
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION app_private.take_report(p_reporter uuid, p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean, p_language text, p_name text, p_email text)
 RETURNS TABLE(report_id uuid, replayed boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  dare public.dares;
  details text := btrim(p_details);
  name text := nullif(btrim(p_name), '');
  email text := nullif(lower(btrim(p_email)), '');
  existing uuid;
  recent bigint;
  taken uuid;
begin
  if p_reason is null or p_reason not in ('hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other') then
    raise exception using message = 'error-invalid-report-reason', errcode = 'P0001';
  end if;
  if details is null or details = '' then
    raise exception using message = 'error-report-details-required', errcode = 'P0001';
  end if;
  if char_length(details) > 1000 or details ~ '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]' then
    raise exception using message = 'error-report-details-too-long', errcode = 'P0001';
  end if;
  if p_good_faith is not true then
    raise exception using message = 'error-report-good-faith-required', errcode = 'P0001';
  end if;
  if p_language is null or p_language not in ('en', 'de', 'es', 'tr') then
    raise exception using message = 'error-invalid-language', errcode = 'P0001';
  end if;
  if p_reporter is null then
    if name is null or char_length(name) > 100 or name ~ '[[:cntrl:]]' then
      raise exception using message = 'error-report-name-required', errcode = 'P0001';
    end if;
    if email is null or char_length(email) > 254 or email !~ '^[^@[:space:]]+@[^@[:space:]]+\.[^@[:space:]]+$' then
      raise exception using message = 'error-invalid-email', errcode = 'P0001';
    end if;
  end if;

  -- A dare the reporter may see: a held or removed one is not there for them.
  select * into dare from public.dares d where d.id = p_dare_id;
  if not found or dare.status = 'removed' or (dare.status = 'held' and dare.author_id is distinct from p_reporter
    and not exists (select 1 from public.sessions s where s.id = dare.session_id and s.creator_id = p_reporter)) then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;
  if p_reporter is not null and dare.author_id = p_reporter then
    raise exception using message = 'error-report-own-dare', errcode = 'P0001';
  end if;

  -- One reporter's reports are counted one at a time.
  perform pg_advisory_xact_lock(hashtext('reports:' || coalesce(p_reporter::text, email)), hashtext(dare.session_id::text));
  -- This reporter's reports in the dare's session: an open one of this dare is
  -- answered again; five in the last minute are the limit.
  with mine as (
    select r.id, r.dare_id, r.status, r.created_at from app_private.reports r
    where r.session_id = dare.session_id
      and (r.reporter_id = p_reporter or (p_reporter is null and r.reporter_id is null and lower(r.reporter_email) = email))
  )
  select (select m.id from mine m where m.dare_id = p_dare_id and m.status = 'open' limit 1),
    (select count(*) from mine m where m.created_at > now() - interval '1 minute')
  into existing, recent;
  if existing is not null then
    return query select existing, true;
    return;
  end if;
  if recent >= 5 then
    raise exception using message = 'error-too-many-reports', errcode = 'P0001';
  end if;

  insert into app_private.reports (
    dare_id, session_id, dare_description, dare_author_id, reporter_id, reporter_name, reporter_email,
    reason, details, good_faith, language
  ) values (
    p_dare_id, dare.session_id, dare.description, dare.author_id, p_reporter,
    case when p_reporter is null then name end, case when p_reporter is null then email end,
    p_reason, details, true, p_language
  )
  returning id into taken;
  if p_reporter is not null then
    update public.profiles set language = p_language where id = p_reporter and language is distinct from p_language;
  end if;
  return query select taken, false;
end;
$function$
;

CREATE OR REPLACE FUNCTION ledger."check"()
 RETURNS TABLE(account_id bigint, kind text, owner uuid, problem text, expected bigint, actual bigint)
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.complete_purchase(p_purchase_id uuid)
 RETURNS TABLE(purchase_id uuid, user_id uuid, coins bigint, credited boolean, user_deleted boolean, balance bigint)
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.system_account(p_kind text)
 RETURNS bigint
 LANGUAGE sql
 STABLE
 SET search_path TO ''
AS $function$
  select id from ledger.accounts where kind = p_kind and kind in ('platform_fee', 'forfeit', 'world', 'payouts');
$function$
;

CREATE OR REPLACE FUNCTION ledger.transfer(p_from bigint, p_to bigint, p_amount bigint, p_kind text, p_reference text, p_idempotency_key text)
 RETURNS TABLE(transfer_id bigint, replayed boolean)
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.appeal_decision(p_decision_id uuid, p_statement text)
 RETURNS uuid
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller uuid := (select auth.uid());
  statement text := btrim(p_statement);
  decision app_private.moderation_decisions;
  appeal uuid;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  select * into decision from app_private.moderation_decisions m where m.id = p_decision_id and m.subject_id = caller;
  if not found or not app_private.appealable(decision.action) then
    raise exception using message = 'error-appeal-not-found', errcode = 'P0001';
  end if;
  if decision.created_at <= now() - interval '6 months' then
    raise exception using message = 'error-appeal-too-late', errcode = 'P0001';
  end if;
  if statement is null or statement = '' then
    raise exception using message = 'error-appeal-statement-required', errcode = 'P0001';
  end if;
  if char_length(statement) > 2000 then
    raise exception using message = 'error-appeal-statement-too-long', errcode = 'P0001';
  end if;
  insert into app_private.moderation_appeals (decision_id, appellant_id, statement)
  values (p_decision_id, caller, statement)
  on conflict (decision_id) do nothing
  returning id into appeal;
  if appeal is null then
    raise exception using message = 'error-appeal-already-made', errcode = 'P0001';
  end if;
  return appeal;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.create_session(p_title text, p_min_boost integer, p_max_dares_per_user integer, p_max_free_dares_per_user integer, p_platform text, p_channel text, p_seconds_to_vote integer)
 RETURNS sessions
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller uuid := (select auth.uid());
  profile public.creator_profiles;
  channel text;
  title text := btrim(p_title);
  created public.sessions;
  violated text;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();

  -- Locks the creator profile: two starts of one creator (a double click, a
  -- retried request, two tabs) run one after the other, and the second sees
  -- the first's session below. Unlinking waits for the same lock.
  select * into profile from public.creator_profiles where id = caller for update;
  if not found
    or (profile.twitch_channel is null and profile.youtube_channel is null and profile.kick_channel is null)
  then
    raise exception using message = 'error-not-a-creator', errcode = 'P0001';
  end if;

  if title is null or title = '' then
    raise exception using message = 'error-title-required', errcode = 'P0001';
  end if;
  if char_length(title) > 140 then
    raise exception using message = 'error-title-too-long', errcode = 'P0001';
  end if;
  perform app_private.assert_not_suspended(caller);
  -- A title is on home, the share card and the stream: no term of the
  -- built-in lists or of the creator's own (docs/product.md §13).
  if app_private.text_verdict(title, caller) <> 'allowed' then
    raise exception using message = 'error-title-not-allowed', errcode = 'P0001';
  end if;
  if p_min_boost is null or p_min_boost < 50 or p_min_boost > 100000 or p_min_boost % 10 <> 0 then
    raise exception using message = 'error-invalid-min-boost', errcode = 'P0001';
  end if;
  if p_max_dares_per_user is null or p_max_dares_per_user < 1 or p_max_dares_per_user > 100 then
    raise exception using message = 'error-invalid-max-dares-per-user', errcode = 'P0001';
  end if;
  if p_max_free_dares_per_user is null or p_max_free_dares_per_user < 0
    or p_max_free_dares_per_user > p_max_dares_per_user
  then
    raise exception using message = 'error-invalid-max-free-dares-per-user', errcode = 'P0001';
  end if;
  if p_seconds_to_vote is null or p_seconds_to_vote < 30 or p_seconds_to_vote > 3600 or p_seconds_to_vote % 5 <> 0 then
    raise exception using message = 'error-invalid-voting-duration', errcode = 'P0001';
  end if;
  if p_platform is null or p_platform not in ('twitch', 'youtube', 'kick') then
    raise exception using message = 'error-invalid-platform', errcode = 'P0001';
  end if;

  channel := app_private.linked_channel(profile, p_platform);
  if channel is null or p_channel is null or lower(p_channel) <> lower(channel) then
    raise exception using message = 'error-no-channel-on-platform', errcode = 'P0001';
  end if;

  if not exists (
    select 1 from public.consents c
    where c.user_id = caller
      and c.kind = 'creator_agreement'
      and c.version = app_private.current_document_version('creator_agreement')
  ) then
    raise exception using message = 'error-creator-agreement-required', errcode = 'P0001';
  end if;

  if exists (select 1 from public.sessions s where s.creator_id = caller and s.status = 'active') then
    raise exception using message = 'error-session-already-active', errcode = 'P0001';
  end if;

  -- The unique indexes decide races the lock above does not cover.
  begin
    insert into public.sessions (
      creator_id, title, platform, channel,
      min_boost, max_dares_per_user, max_free_dares_per_user, voting_duration
    ) values (
      caller, title, p_platform, channel,
      p_min_boost, p_max_dares_per_user, p_max_free_dares_per_user, p_seconds_to_vote
    )
    returning * into created;
  exception when unique_violation then
    get stacked diagnostics violated = constraint_name;
    raise exception using
      message = case violated
        when 'sessions_one_active_per_creator' then 'error-session-already-active'
        else 'error-channel-already-live'
      end,
      errcode = 'P0001';
  end;
  return created;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.moderate(p_action text, p_target uuid, p_ground text, p_explanation text)
 RETURNS TABLE(decision_id uuid, subject_id uuid, subject_email text, subject_language text, reporter_email text, reporter_language text)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  operator uuid := app_private.assert_operator();
  explanation text := btrim(p_explanation);
  report app_private.reports;
  dare public.dares;
  decision app_private.moderation_decisions;
  appealed app_private.moderation_decisions;
  payout record;
  subject uuid;
  automated boolean := false;
begin
  if p_action is null or p_action not in (
    'remove_dare', 'dismiss_report', 'approve_dare', 'suspend_user', 'restrict_payouts', 'reinstate_user',
    'appeal_upheld', 'appeal_granted', 'approve_payout', 'reject_payout'
  ) then
    raise exception using message = 'error-invalid-decision', errcode = 'P0001';
  end if;
  if p_ground is null or p_ground not in ('hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other', 'none') then
    raise exception using message = 'error-invalid-report-reason', errcode = 'P0001';
  end if;
  if explanation is null or explanation = '' or char_length(explanation) > 2000 then
    raise exception using message = 'error-decision-explanation-required', errcode = 'P0001';
  end if;

  if p_action in ('approve_payout', 'reject_payout') then
    select * into payout from ledger.payouts p where p.id = p_target for update;
    if not found then
      raise exception using message = 'error-payout-not-found', errcode = 'P0001';
    end if;
    if payout.status <> 'review' then
      raise exception using message = 'error-payout-decided', errcode = 'P0001';
    end if;
    -- Nobody reviews their own payout.
    if payout.user_id = operator then
      raise exception using message = 'error-payout-own', errcode = 'P0001';
    end if;
    if p_action = 'approve_payout' then
      -- Not while the creator's payouts are restricted or a purchase of theirs is disputed.
      if exists (select 1 from app_private.account_restrictions r where r.user_id = payout.user_id and r.payouts_restricted_at is not null) then
        raise exception using message = 'error-payouts-restricted', errcode = 'P0001';
      end if;
      if ledger.spending_restricted(payout.user_id) then
        raise exception using message = 'error-spending-restricted', errcode = 'P0001';
      end if;
      update ledger.payouts set status = 'approved', decided_at = now() where id = payout.id;
    else
      perform ledger.return_payout(payout.id, 'rejected', explanation);
    end if;
    insert into app_private.moderation_decisions (action, subject_id, payout_id, ground, explanation, decided_by)
    values (p_action, payout.user_id, payout.id, p_ground, explanation, operator)
    returning * into decision;
  elsif p_action in ('appeal_upheld', 'appeal_granted') then
    select * into appealed from app_private.moderation_decisions m where m.id = p_target for update;
    if not found or not exists (select 1 from app_private.moderation_appeals a where a.decision_id = p_target) then
      raise exception using message = 'error-appeal-not-found', errcode = 'P0001';
    end if;
    if exists (select 1 from app_private.moderation_decisions x where x.appeal_of = p_target) then
      raise exception using message = 'error-appeal-decided', errcode = 'P0001';
    end if;
    subject := appealed.subject_id;
    if p_action = 'appeal_granted' and appealed.action = 'suspend_user' then
      update app_private.account_restrictions set suspended_at = null where user_id = subject;
    elsif p_action = 'appeal_granted' and appealed.action = 'restrict_payouts' then
      update app_private.account_restrictions set payouts_restricted_at = null where user_id = subject;
    end if;
    insert into app_private.moderation_decisions (action, dare_id, dare_description, subject_id, ground, explanation, appeal_of, decided_by)
    values (p_action, appealed.dare_id, appealed.dare_description, subject, p_ground, explanation, p_target, operator)
    returning * into decision;
  else
    select * into report from app_private.reports r where r.id = p_target for update;
    if found then
      if report.status <> 'open' then
        raise exception using message = 'error-report-decided', errcode = 'P0001';
      end if;
      select * into dare from public.dares d where d.id = report.dare_id;
    elsif p_action in ('remove_dare', 'approve_dare') then
      select * into dare from public.dares d where d.id = p_target;
      if not found then
        raise exception using message = 'error-dare-not-found', errcode = 'P0001';
      end if;
    elsif p_action = 'dismiss_report' then
      raise exception using message = 'error-report-not-found', errcode = 'P0001';
    end if;

    if p_action in ('suspend_user', 'restrict_payouts', 'reinstate_user') then
      subject := coalesce(report.dare_author_id, case when report.id is null then p_target end);
      if subject is null or not exists (select 1 from auth.users u where u.id = subject) then
        raise exception using message = 'error-user-not-found', errcode = 'P0001';
      end if;
      insert into app_private.account_restrictions (user_id) values (subject) on conflict do nothing;
      if p_action = 'suspend_user' then
        update app_private.account_restrictions set suspended_at = coalesce(suspended_at, now()) where user_id = subject;
      elsif p_action = 'reinstate_user' then
        update app_private.account_restrictions set suspended_at = null, payouts_restricted_at = null where user_id = subject;
      else
        update app_private.account_restrictions set payouts_restricted_at = coalesce(payouts_restricted_at, now()) where user_id = subject;
      end if;
    elsif p_action = 'remove_dare' then
      if dare.id is null then
        raise exception using message = 'error-dare-not-found', errcode = 'P0001';
      end if;
      subject := dare.author_id;
      automated := dare.status = 'held';
      perform app_private.remove_dare(dare.id);
    elsif p_action = 'approve_dare' then
      if dare.id is null or dare.status <> 'held' then
        raise exception using message = 'error-dare-not-held', errcode = 'P0001';
      end if;
      update public.dares set status = 'open' where id = dare.id;
    end if;

    if report.id is not null then
      update app_private.reports set status = case when p_action = 'dismiss_report' then 'dismissed' else 'actioned' end,
        decided_at = now()
      where id = report.id;
    end if;
    if p_action = 'remove_dare' then
      update app_private.reports set status = 'actioned', decided_at = now() where dare_id = dare.id and status = 'open';
    end if;

    insert into app_private.moderation_decisions (
      action, report_id, dare_id, dare_description, subject_id, ground, explanation, automated_detection, decided_by
    ) values (
      p_action, report.id, coalesce(dare.id, report.dare_id), coalesce(dare.description, report.dare_description),
      case when p_action in ('dismiss_report', 'approve_dare') then null else subject end,
      p_ground, explanation, automated, operator
    )
    returning * into decision;
  end if;

  return query
    select decision.id, decision.subject_id, u.email::text, coalesce(p.language, 'en'),
      coalesce(report.reporter_email, ru.email::text), coalesce(report.language, rp.language, 'en')
    from (select 1) one
    left join auth.users u on u.id = decision.subject_id
    left join public.profiles p on p.id = decision.subject_id
    left join auth.users ru on ru.id = report.reporter_id
    left join public.profiles rp on rp.id = report.reporter_id;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.my_decision(p_decision_id uuid)
 RETURNS TABLE(id uuid, action text, ground text, explanation text, dare_description text, automated_detection boolean, created_at timestamp with time zone, appealed boolean, appealable boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select m.id, m.action, m.ground, m.explanation, m.dare_description, m.automated_detection, m.created_at,
    exists (select 1 from app_private.moderation_appeals a where a.decision_id = m.id),
    app_private.appealable(m.action)
      and m.created_at > now() - interval '6 months'
      and not exists (select 1 from app_private.moderation_appeals a where a.decision_id = m.id)
  from app_private.moderation_decisions m
  where m.id = p_decision_id and m.subject_id = (select auth.uid()) and (select app_private.has_assurance());
$function$
;

insert into ledger.accounts (kind) values ('payouts');

revoke all on function app_private.assert_not_suspended(uuid) from public, anon, authenticated;

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
