-- The reader's own boost and vote on each dare (public.session_dares,
-- public.session_dare) are a user's own data too: like the rest
-- (20261203000400_own_data_with_the_second_factor.sql), shown only with the
-- second factor proved when the user has one (issue 24, finding 9).
-- Written by npm run db:diff from supabase/schemas.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.session_dare(p_dare_id uuid)
 RETURNS TABLE(id uuid, description text, reward bigint, status text, pot bigint, author_id uuid, author_username text, boosters integer, yes_votes integer, no_votes integer, voting_ends_at timestamp with time zone, created_at timestamp with time zone, my_boost bigint, my_vote boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select l.*,
    (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid()) and (select app_private.has_assurance())),
    (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()) and (select app_private.has_assurance()))
  from public.dares d
  cross join lateral app_private.live_dares(d.session_id, array[d.id]) l
  where d.id = p_dare_id;
$function$
;

CREATE OR REPLACE FUNCTION public.session_dares(p_session_id uuid)
 RETURNS TABLE(id uuid, description text, reward bigint, status text, pot bigint, author_id uuid, author_username text, boosters integer, yes_votes integer, no_votes integer, voting_ends_at timestamp with time zone, created_at timestamp with time zone, my_boost bigint, my_vote boolean)
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
      (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid()) and (select app_private.has_assurance())),
      (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()) and (select app_private.has_assurance()))
    from app_private.live_dares(p_session_id, null) l
    order by (l.status in ('open', 'accepted', 'voting')) desc, l.pot desc, l.created_at, l.id;
end;
$function$
;
