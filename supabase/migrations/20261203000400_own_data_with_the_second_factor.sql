-- A user's own data is read only with the second factor proved, when there is
-- one (issue 24, finding 9): an aal1 token of a user with a verified factor
-- (Supabase Auth issues one after the password alone) still read the wallet,
-- the transfers, the purchases, the overlay's secret key, the profile, the
-- consents, the creator profile, the own boosts and votes, and the wallet's
-- realtime topic. Writes already asked for it.
-- Written by npm run db:diff from supabase/schemas.

drop policy "Users read their own boosts" on "public"."boosts";

drop policy "Users can read their own consents" on "public"."consents";

drop policy "Users can read their own creator profile" on "public"."creator_profiles";

drop policy "Users can read their own profile" on "public"."profiles";

drop policy "Users read their own votes" on "public"."votes";

drop policy "Users can read their own wallet" on "public"."wallets";

drop policy "Users receive broadcasts on their own wallet topic" on "realtime"."messages";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION app_private.session_of_creator(p_session_id uuid)
 RETURNS sessions
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller uuid := (select auth.uid());
  session public.sessions;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  -- The overlay's key is a secret of the creator's: read with the second factor proved, if there is one.
  perform app_private.assert_assurance();
  select * into session from public.sessions s where s.id = p_session_id;
  if not found or session.creator_id <> caller then
    raise exception using message = 'error-not-session-creator', errcode = 'P0001';
  end if;
  return session;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.purchase_history(p_limit integer DEFAULT 50)
 RETURNS TABLE(id uuid, created_at timestamp with time zone, pack_id text, coins bigint, amount_minor bigint, currency text, provider text, status text, completed_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select p.id, p.created_at, p.pack_id, p.coins, p.amount_minor, p.currency, p.provider, p.status, p.completed_at
  from ledger.purchases p
  where p.user_id = (select auth.uid()) and (select app_private.has_assurance())
  order by p.created_at desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$function$
;

CREATE OR REPLACE FUNCTION public.wallet_transfers(p_limit integer DEFAULT 50)
 RETURNS TABLE(id bigint, created_at timestamp with time zone, kind text, amount bigint, reference text)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select t.id, t.created_at, t.kind,
    case when t.to_account = a.id then t.amount else -t.amount end,
    t.reference
  from ledger.accounts a
  join ledger.transfers t on t.to_account = a.id or t.from_account = a.id
  where a.kind = 'wallet' and a.user_id = (select auth.uid()) and (select app_private.has_assurance())
  order by t.id desc
  limit least(greatest(coalesce(p_limit, 50), 1), 200);
$function$
;


  create policy "Users read their own boosts"
  on "public"."boosts"
  as permissive
  for select
  to authenticated
using (((booster_id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Users can read their own consents"
  on "public"."consents"
  as permissive
  for select
  to authenticated
using (((user_id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Users can read their own creator profile"
  on "public"."creator_profiles"
  as permissive
  for select
  to authenticated
using (((id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Users can read their own profile"
  on "public"."profiles"
  as permissive
  for select
  to authenticated
using (((id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Users read their own votes"
  on "public"."votes"
  as permissive
  for select
  to authenticated
using (((voter_id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Users can read their own wallet"
  on "public"."wallets"
  as permissive
  for select
  to authenticated
using (((id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Users receive broadcasts on their own wallet topic"
  on "realtime"."messages"
  as permissive
  for select
  to authenticated
using (((( SELECT realtime.topic() AS topic) = ('wallets_'::text || (( SELECT auth.uid() AS uid))::text)) AND ( SELECT app_private.has_assurance() AS has_assurance) AND (topic = ( SELECT realtime.topic() AS topic)) AND (extension = 'broadcast'::text)));
