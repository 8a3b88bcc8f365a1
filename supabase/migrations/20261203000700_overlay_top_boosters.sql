-- The session's top boosters for the overlay (issue 26, "an overlay that
-- celebrates"): usernames and coins of the session's shown dares, public like
-- a stream's top cheerers. Written by npm run db:diff from supabase/schemas.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION public.session_top_boosters(p_session_id uuid, p_limit integer)
 RETURNS TABLE(username text, coins bigint)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select p.username, sum(b.amount)::bigint
  from public.dares d
  join public.boosts b on b.dare_id = d.id and b.refunded_at is null
  join public.profiles p on p.id = b.booster_id
  where d.session_id = p_session_id and d.status in ('open', 'accepted', 'voting', 'completed')
  group by p.username
  order by 2 desc, 1
  limit least(greatest(coalesce(p_limit, 3), 1), 10);
$function$
;

revoke all on function public.session_top_boosters(uuid, integer) from public, anon, authenticated;
grant execute on function public.session_top_boosters(uuid, integer) to anon, authenticated;
