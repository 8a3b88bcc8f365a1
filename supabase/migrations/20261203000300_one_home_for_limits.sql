-- One home per limit (issue 23): the tables' checks now say every limit the
-- forms say (app/modules/dares/limits.ts, app/modules/sessions/schemas.ts;
-- tests/sql/limits.test.ts holds them equal).
--   - A dare's reward and a boost: at most 1,000,000 coins, as the forms
--     allow. The database allowed 1,000,000,000 while a comment said the two
--     were the same; a direct call could boost above the form's maximum.
--   - A session's minimum boost, dares per viewer and voting time get the
--     maxima create_session already refused above (100,000; 100; 3,600 s).
--   - A purchase's key is a client's key like every other (8 to 190
--     characters; the stored keys of the ledger keep room for a prefix).
-- Written by npm run db:diff from supabase/schemas.

alter table "public"."boosts" drop constraint "boosts_amount_valid";

alter table "public"."dares" drop constraint "dares_reward_valid";

alter table "public"."sessions" drop constraint "sessions_max_dares_per_user_valid";

alter table "public"."sessions" drop constraint "sessions_min_boost_valid";

alter table "public"."sessions" drop constraint "sessions_voting_duration_valid";

alter table "public"."boosts" add constraint "boosts_amount_valid" CHECK (((amount >= 10) AND ((amount % (10)::bigint) = 0) AND (amount <= 1000000))) not valid;

alter table "public"."boosts" validate constraint "boosts_amount_valid";

alter table "public"."dares" add constraint "dares_reward_valid" CHECK (((reward >= 0) AND ((reward % (10)::bigint) = 0) AND (reward <= 1000000))) not valid;

alter table "public"."dares" validate constraint "dares_reward_valid";

alter table "public"."sessions" add constraint "sessions_max_dares_per_user_valid" CHECK (((max_dares_per_user >= 1) AND (max_dares_per_user <= 100))) not valid;

alter table "public"."sessions" validate constraint "sessions_max_dares_per_user_valid";

alter table "public"."sessions" add constraint "sessions_min_boost_valid" CHECK (((min_boost >= 50) AND (min_boost <= 100000) AND ((min_boost % 10) = 0))) not valid;

alter table "public"."sessions" validate constraint "sessions_min_boost_valid";

alter table "public"."sessions" add constraint "sessions_voting_duration_valid" CHECK (((voting_duration >= 30) AND (voting_duration <= 3600) AND ((voting_duration % 5) = 0))) not valid;

alter table "public"."sessions" validate constraint "sessions_voting_duration_valid";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION ledger.create_purchase(p_pack_id text, p_coins bigint, p_amount_minor bigint, p_currency text, p_provider text, p_idempotency_key text)
 RETURNS ledger.purchases
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.boost_dare(p_dare_id uuid, p_amount integer, p_idempotency_key text)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  if dare.status not in ('open', 'accepted') then
    raise exception using message = 'error-dare-not-boostable', errcode = 'P0001';
  end if;

  perform app_private.record_boost(dare.id, caller, p_amount, 'boost:' || p_idempotency_key);
  return dare;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.create_dare(p_description text, p_session_id uuid, p_reward integer, p_idempotency_key text)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller uuid := app_private.assert_participant();
  description text := btrim(p_description);
  session public.sessions;
  dare public.dares;
  created integer;
begin
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
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

  insert into public.dares (session_id, author_id, description, reward, idempotency_key)
  values (p_session_id, caller, description, p_reward, 'dare:' || p_idempotency_key)
  returning * into dare;

  if p_reward > 0 then
    perform app_private.record_boost(dare.id, caller, p_reward, 'boost:' || p_idempotency_key);
  end if;
  return dare;
end;
$function$
;
