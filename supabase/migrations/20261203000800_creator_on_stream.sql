-- The creator on stream (issue 26): extend or cancel a running vote, and a
-- session's recap for its creator. Written by npm run db:diff from
-- supabase/schemas; the privileges at the end.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.cancel_vote(p_dare_id uuid)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.extend_vote(p_dare_id uuid, p_seconds integer)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.session_recap(p_session_id uuid)
 RETURNS TABLE(earned bigint, completed integer, failed integer, refunded integer)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select
    coalesce((
      select sum(t.amount)
      from ledger.accounts a
      join ledger.transfers t on t.to_account = a.id and t.kind = 'payout'
      join public.dares d on d.id::text = t.reference and d.session_id = s.id
      where a.kind = 'wallet' and a.user_id = s.creator_id
    ), 0)::bigint,
    (select count(*)::integer from public.dares d where d.session_id = s.id and d.status = 'completed'),
    (select count(*)::integer from public.dares d where d.session_id = s.id and d.status = 'failed'),
    (select count(*)::integer from public.dares d where d.session_id = s.id and d.status in ('rejected', 'expired', 'removed'))
  from public.sessions s
  where s.id = p_session_id and s.creator_id = (select auth.uid()) and (select app_private.has_assurance());
$function$
;

revoke all on function public.extend_vote(uuid, integer) from public, anon, authenticated;
grant execute on function public.extend_vote(uuid, integer) to authenticated;
revoke all on function public.cancel_vote(uuid) from public, anon, authenticated;
grant execute on function public.cancel_vote(uuid) to authenticated;
revoke all on function public.session_recap(uuid) from public, anon, authenticated;
grant execute on function public.session_recap(uuid) to authenticated;
