-- supabase/schemas/overlay.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Overlay: the OBS overlay's secret key and what it shows.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

-- The OBS overlay (docs/product.md §5.7): /{lang}/overlay/{sessionId}?key=...
--
-- OBS loads the overlay as a browser source, without signing in, so the URL
-- carries a secret: a key per session, which only the session's creator can
-- read (to copy it from their session page) or replace (which turns the old
-- URL off). The keys live in app_private (not exposed; deny by default); the
-- definer functions below take the caller from auth.uid().
create table app_private.overlay_keys (
  session_id uuid primary key references public.sessions (id) on delete cascade,
  -- 32 random bytes, hex: 64 characters.
  key text not null constraint overlay_keys_key_format check (key ~ '^[0-9a-f]{64}$'),
  created_at timestamptz not null default now()
);
revoke all on table app_private.overlay_keys from public, anon, authenticated;

create function app_private.session_of_creator(p_session_id uuid)
returns public.sessions
language plpgsql
stable
security definer
set search_path = ''
as $$
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
$$;
revoke all on function app_private.session_of_creator(uuid) from public, anon, authenticated;

create function app_private.new_overlay_key()
returns text
language sql
volatile
set search_path = ''
as $$
  select replace(gen_random_uuid()::text || gen_random_uuid()::text, '-', '')
$$;
revoke all on function app_private.new_overlay_key() from public, anon, authenticated;

-- The creator's overlay key for their session (made on first use).
create function public.overlay_key(p_session_id uuid)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  session public.sessions := app_private.session_of_creator(p_session_id);
  found_key text;
begin
  insert into app_private.overlay_keys (session_id, key)
  values (session.id, app_private.new_overlay_key())
  on conflict (session_id) do nothing;
  select k.key into found_key from app_private.overlay_keys k where k.session_id = session.id;
  return found_key;
end;
$$;
revoke all on function public.overlay_key(uuid) from public, anon, authenticated;
grant execute on function public.overlay_key(uuid) to authenticated;

-- A new key: the overlay URL copied before stops working.
create function public.regenerate_overlay_key(p_session_id uuid)
returns text
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  session public.sessions := app_private.session_of_creator(p_session_id);
  new_key text := app_private.new_overlay_key();
begin
  perform app_private.assert_assurance();
  insert into app_private.overlay_keys (session_id, key) values (session.id, new_key)
  on conflict (session_id) do update set key = excluded.key, created_at = now();
  return new_key;
end;
$$;
revoke all on function public.regenerate_overlay_key(uuid) from public, anon, authenticated;
grant execute on function public.regenerate_overlay_key(uuid) to authenticated;

-- Whether `p_key` opens the overlay of `p_session_id` (anyone may ask; only the right key says yes).
create function public.overlay_key_valid(p_session_id uuid, p_key text)
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select exists (
    select 1 from app_private.overlay_keys k
    where k.session_id = p_session_id and p_key is not null and k.key = p_key
  )
$$;
revoke all on function public.overlay_key_valid(uuid, text) from public, anon, authenticated;
grant execute on function public.overlay_key_valid(uuid, text) to anon, authenticated;

-- The session's top boosters, most coins first (the overlay shows them on
-- stream, like a stream's top cheerers): a booster's username and the coins
-- they put into the session's running and completed dares (the boosts of a
-- refunded dare, or given back at a ban, went back); deleted accounts are
-- not named. At most p_limit (1 to 10) rows.
create function public.session_top_boosters(p_session_id uuid, p_limit integer)
returns table (username text, coins bigint)
language sql
stable
security definer
set search_path = ''
as $$
  select p.username, sum(b.amount)::bigint
  from public.dares d
  join public.boosts b on b.dare_id = d.id and b.refunded_at is null
  join public.profiles p on p.id = b.booster_id
  where d.session_id = p_session_id and d.status in ('open', 'accepted', 'voting', 'completed')
  group by p.username
  order by 2 desc, 1
  limit least(greatest(coalesce(p_limit, 3), 1), 10);
$$;
revoke all on function public.session_top_boosters(uuid, integer) from public, anon, authenticated;
grant execute on function public.session_top_boosters(uuid, integer) to anon, authenticated;
