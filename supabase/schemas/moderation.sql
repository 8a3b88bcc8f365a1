-- supabase/schemas/moderation.sql: the current definition (docs/decisions/047-declarative-schemas.md).
-- Moderation: the text filter, creators' controls (review, hide, ban, blocked terms), reports, operators' decisions and appeals.
--
-- Read a rule here; supabase/migrations holds how a deployed database got
-- here. To change it: edit this file, run `npm run db:diff -- --name <what>`,
-- read and comment the migration it writes, commit both. `npm run db:diff --
-- --check` (in npm test) fails while the two disagree.

-- The rules are docs/product.md §13; the choices docs/decisions/050-moderation.md.
-- Every rule is checked here, where a direct call through the Data API meets
-- it too: the caller comes from auth.uid(), the tables take no write from
-- the API roles, and every refusal is an `error-...` message (P0001).

-- ---------------------------------------------------------------------------
-- The text filter
-- ---------------------------------------------------------------------------

-- A text as the filter reads it: ' token token ' (spaces around every token),
-- after undoing the usual disguises. Unicode NFKC (full-width and styled
-- letters become plain ones); zero-width, joiner and direction characters
-- dropped; Turkish dotted and dotless i as i; letters with diacritics as
-- their base letter (ß as ss); Cyrillic and Greek look-alikes as the Latin
-- letter they imitate; then lower case. Inside a word, digits and symbols
-- read as the letters they stand for (sh1t, @ss, $h!t); a run of three or
-- more single letters is one word (f u c k, f.u.c.k). The same function
-- reads the terms, so a term matches whatever way it is written.
create function app_private.filter_tokens(p_text text)
returns text
language plpgsql
immutable
parallel safe
set search_path = ''
as $$
declare
  t text := normalize(coalesce(p_text, ''), nfkc);
  word text;
  words text[] := '{}';
  run text := '';
  run_length integer := 0;
begin
  t := regexp_replace(t, '[\u00ad\u034f\u061c\u115f\u1160\u17b4\u17b5\u180b-\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u206a-\u206f\ufeff]', '', 'g');
  t := translate(t, 'İIı', 'iii');
  t := replace(replace(replace(replace(t, 'ß', 'ss'), 'ẞ', 'ss'), 'æ', 'ae'), 'œ', 'oe');
  t := translate(t,
    'ÀÁÂÃÄÅĀĂĄàáâãäåāăąÇĆĈĊČçćĉċčĎĐďđÈÉÊËĒĔĖĘĚèéêëēĕėęěĜĞĠĢĝğġģĤĦĥħÌÍÎÏĨĪĬĮìíîïĩīĭįĴĵĶķĹĻĽĿŁĺļľŀłÑŃŅŇñńņňÒÓÔÕÖØŌŎŐòóôõöøōŏőŔŖŘŕŗřŚŜŞŠȘśŝşšșŢŤŦȚţťŧțÙÚÛÜŨŪŬŮŰŲùúûüũūŭůűųŴŵÝŸŶýÿŷŹŻŽźżž',
    'AAAAAAAAAaaaaaaaaaCCCCCcccccDDddEEEEEEEEEeeeeeeeeeGGGGggggHHhhIIIIIIIIiiiiiiiiJjKkLLLLLlllllNNNNnnnnOOOOOOOOOoooooooooRRRrrrSSSSSsssssTTTTttttUUUUUUUUUUuuuuuuuuuuWwYYYyyyZZZzzz');
  -- Cyrillic, then Greek, letters that look like Latin ones.
  t := translate(t,
    'АВЕЅІЈКМНОРСТУХаеѕіјкмнорстухԁһӏԛԝ',
    'ABESIJKMHOPCTYXaesijkmhopctyxdhlqw');
  t := translate(t, 'ΑΒΕΖΗΙΚΜΝΟΡΤΥΧαβεικνορτυχ', 'ABEZHIKMNOPTYXabeiknoptux');
  t := lower(t);

  foreach word in array regexp_split_to_array(t, '[^a-z0-9@$!|€]+') loop
    -- Symbols at a word's edges are punctuation (fuck! is fuck), inside it letters.
    word := regexp_replace(word, '^[!|]+|[!|]+$', '', 'g');
    if word ~ '[a-z]' then
      word := translate(word, '0134578@$!|€', 'oieastbasiie');
    end if;
    if word = '' then
      continue;
    end if;
    if char_length(word) = 1 and word ~ '[a-z]' then
      run := run || word;
      run_length := run_length + 1;
      continue;
    end if;
    if run_length >= 3 then
      words := words || run;
    elsif run_length > 0 then
      words := words || regexp_split_to_array(run, '');
    end if;
    run := '';
    run_length := 0;
    words := words || word;
  end loop;
  if run_length >= 3 then
    words := words || run;
  elsif run_length > 0 then
    words := words || regexp_split_to_array(run, '');
  end if;
  return ' ' || array_to_string(words, ' ') || ' ';
end;
$$;
revoke all on function app_private.filter_tokens(text) from public, anon, authenticated;

-- A term's tokens with every run of a repeated letter as one (faggot is fagot).
create function app_private.filter_squeezed(p_tokens text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select regexp_replace(p_tokens, '([a-z])\1+', '\1', 'g');
$$;
revoke all on function app_private.filter_squeezed(text) from public, anon, authenticated;

-- The text's drawn-out words (a letter three times or more: fuuuck, niggggger)
-- with every run as one letter, the others as ~, which no term is: natural
-- double letters (Niger, Fagott, Sikkim) are read as written only.
create function app_private.filter_stretched(p_tokens text)
returns text
language sql
immutable
parallel safe
set search_path = ''
as $$
  select ' ' || coalesce(string_agg(
      case when w ~ '([a-z])\1\1' then regexp_replace(w, '([a-z])\1+', '\1', 'g') else '~' end, ' ' order by n), '') || ' '
  from unnest(string_to_array(btrim(p_tokens), ' ')) with ordinality as t (w, n);
$$;
revoke all on function app_private.filter_stretched(text) from public, anon, authenticated;

-- A term (its tokens, without the spaces around them) matches whole words in
-- order; a prefix term (written with a trailing *) the start of a word. A
-- term squeezed also matches the text's drawn-out words squeezed
-- (filter_stretched), if it keeps four letters or more: shorter ones would
-- match ordinary words (as, hel).
create function app_private.filter_matches(
  p_tokens text, p_squeezed text, p_term text, p_term_squeezed text, p_prefix boolean
)
returns boolean
language sql
immutable
parallel safe
set search_path = ''
as $$
  select p_term <> ''
    and (
      strpos(p_tokens, ' ' || p_term || case when p_prefix then '' else ' ' end) > 0
      or (char_length(replace(p_term_squeezed, ' ', '')) >= 4
        and strpos(p_squeezed, ' ' || p_term_squeezed || case when p_prefix then '' else ' ' end) > 0)
    );
$$;
revoke all on function app_private.filter_matches(text, text, text, text, boolean) from public, anon, authenticated;

-- The built-in word lists (en, de, es, tr), data the app writes at start-up
-- from app/modules/moderation/terms.ts (app_private.set_filter_terms). One
-- list for every dare whatever its language: a viewer may write in any.
create table app_private.filter_terms (
  term text primary key
    constraint filter_terms_term_valid check (char_length(term) between 1 and 61 and term !~ '[[:cntrl:]]'),
  language text not null
    constraint filter_terms_language_valid check (language in ('en', 'de', 'es', 'tr')),
  prefix boolean not null generated always as (right(term, 1) = '*') stored,
  tokens text not null generated always as (btrim(app_private.filter_tokens(rtrim(term, '*')))) stored,
  squeezed text not null generated always as (btrim(app_private.filter_squeezed(app_private.filter_tokens(rtrim(term, '*'))))) stored
);
revoke all on table app_private.filter_terms from public, anon, authenticated, service_role;

-- Replaces the built-in lists with p_terms ([{language, term}]), writing
-- only what changed; for the app's owner connection at start-up.
create function app_private.set_filter_terms(p_terms jsonb)
returns void
language plpgsql
volatile
set search_path = ''
as $$
declare
  stored text;
  wanted text;
begin
  -- The same lists as stored (every start but the first after a change): nothing written.
  select md5(coalesce(string_agg(f.term || ':' || f.language, ',' order by f.term), '')) into stored from app_private.filter_terms f;
  select md5(coalesce(string_agg(w.term || ':' || w.language, ',' order by w.term), '')) into wanted
  from (
    select distinct on (t.term) t.term, t.language
    from jsonb_to_recordset(p_terms) as t (term text, language text)
    order by t.term, t.language
  ) w;
  if stored = wanted then
    return;
  end if;
  with wanted as (
    select distinct on (t.term) t.term, t.language
    from jsonb_to_recordset(p_terms) as t (term text, language text)
    order by t.term, t.language
  ),
  gone as (
    delete from app_private.filter_terms f where not exists (select 1 from wanted w where w.term = f.term)
  )
  insert into app_private.filter_terms (term, language)
  select w.term, w.language from wanted w
  on conflict (term) do update set language = excluded.language
  where app_private.filter_terms.language <> excluded.language;
end;
$$;
revoke all on function app_private.set_filter_terms(jsonb) from public, anon, authenticated, service_role;

-- A creator's own blocked terms (settings): a dare in their sessions that
-- contains one is refused, a title too. Whole words, * at the end for a
-- prefix, like the built-in terms.
create table public.blocked_terms (
  creator_id uuid not null references auth.users (id) on delete cascade,
  term text not null
    constraint blocked_terms_term_valid
    check (char_length(term) between 2 and 61 and term = btrim(term) and term !~ '[[:cntrl:]]'
      and term ~ '^[^*]+[*]?$'),
  created_at timestamptz not null default now(),
  primary key (creator_id, term)
);
alter table public.blocked_terms enable row level security;
create policy "Creators read their own blocked terms"
  on public.blocked_terms for select to authenticated
  using (creator_id = (select auth.uid()) and (select app_private.has_assurance()));
revoke all on table public.blocked_terms from anon, authenticated;
grant select on table public.blocked_terms to authenticated;

-- Replaces the caller's blocked terms with p_terms (at most 200, each 2 to
-- 60 characters and an optional trailing *, case and repeats folded).
create function public.set_blocked_terms(p_terms text[])
returns setof public.blocked_terms
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  cleaned text[];
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  select coalesce(array_agg(distinct lower(btrim(t))), '{}') into cleaned
  from unnest(coalesce(p_terms, '{}')) t where btrim(t) <> '';
  if cardinality(cleaned) > 200 then
    raise exception using message = 'error-too-many-blocked-terms', errcode = 'P0001';
  end if;
  if exists (
    select 1 from unnest(cleaned) t
    where char_length(t) < 2 or char_length(rtrim(t, '*')) > 60 or t ~ '[[:cntrl:]]' or t !~ '^[^*]+[*]?$'
      or btrim(app_private.filter_tokens(rtrim(t, '*'))) = ''
  ) then
    raise exception using message = 'error-invalid-blocked-term', errcode = 'P0001';
  end if;
  delete from public.blocked_terms b where b.creator_id = caller and b.term <> all (cleaned);
  insert into public.blocked_terms (creator_id, term)
  select caller, t from unnest(cleaned) t
  on conflict do nothing;
  return query select * from public.blocked_terms b where b.creator_id = caller order by b.term;
end;
$$;
revoke all on function public.set_blocked_terms(text[]) from public, anon, authenticated;
grant execute on function public.set_blocked_terms(text[]) to authenticated;

-- What the filter says of a text written for p_creator's sessions: 'refused'
-- (one of the creator's blocked terms), 'held' (a built-in term) or
-- 'allowed'.
create function app_private.text_verdict(p_text text, p_creator uuid)
returns text
language plpgsql
stable
security definer
set search_path = ''
as $$
declare
  text_tokens text := app_private.filter_tokens(p_text);
  text_squeezed text := app_private.filter_stretched(text_tokens);
begin
  if exists (
    select 1 from public.blocked_terms b
    cross join lateral (select btrim(app_private.filter_tokens(rtrim(b.term, '*'))) as t) bt
    where b.creator_id = p_creator
      and app_private.filter_matches(text_tokens, text_squeezed, bt.t, app_private.filter_squeezed(bt.t), right(b.term, 1) = '*')
  ) then
    return 'refused';
  end if;
  if exists (
    select 1 from app_private.filter_terms f
    where app_private.filter_matches(text_tokens, text_squeezed, f.tokens, f.squeezed, f.prefix)
  ) then
    return 'held';
  end if;
  return 'allowed';
end;
$$;
revoke all on function app_private.text_verdict(text, uuid) from public, anon, authenticated;

-- ---------------------------------------------------------------------------
-- Bans and suspensions
-- ---------------------------------------------------------------------------

-- A viewer a creator keeps out of all their sessions: no dare, boost or vote.
create table public.creator_bans (
  id bigint generated always as identity primary key,
  creator_id uuid not null references auth.users (id) on delete cascade,
  user_id uuid not null references auth.users (id) on delete cascade,
  created_at timestamptz not null default now(),
  constraint creator_bans_not_self check (creator_id <> user_id)
);
create unique index creator_bans_pair on public.creator_bans (creator_id, user_id);
create index creator_bans_user_idx on public.creator_bans (user_id);
alter table public.creator_bans enable row level security;
create policy "Creators read their own bans"
  on public.creator_bans for select to authenticated
  using (creator_id = (select auth.uid()) and (select app_private.has_assurance()));
revoke all on table public.creator_bans from anon, authenticated;
grant select on table public.creator_bans to authenticated;

create function app_private.assert_not_banned(p_creator uuid, p_user uuid)
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if exists (select 1 from public.creator_bans b where b.creator_id = p_creator and b.user_id = p_user) then
    raise exception using message = 'error-banned', errcode = 'P0001';
  end if;
end;
$$;
revoke all on function app_private.assert_not_banned(uuid, uuid) from public, anon, authenticated;

-- What operators' decisions restrict (app_private.assert_participant refuses
-- a suspended account; payouts restricted: docs/product.md §13).
create table app_private.account_restrictions (
  user_id uuid primary key references auth.users (id) on delete cascade,
  suspended_at timestamptz,
  payouts_restricted_at timestamptz
);
revoke all on table app_private.account_restrictions from public, anon, authenticated, service_role;

-- A suspended account takes part in nothing (app_private.assert_participant,
-- public.create_session): error-account-suspended.
create function app_private.assert_not_suspended(p_user uuid)
returns void
language plpgsql
stable
set search_path = ''
as $$
begin
  if exists (select 1 from app_private.account_restrictions r where r.user_id = p_user and r.suspended_at is not null) then
    raise exception using message = 'error-account-suspended', errcode = 'P0001';
  end if;
end;
$$;
revoke all on function app_private.assert_not_suspended(uuid) from public, anon, authenticated;

-- The caller's own restrictions (settings shows them).
create function public.my_restrictions()
returns table (suspended boolean, payouts_restricted boolean)
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce(bool_or(r.suspended_at is not null), false), coalesce(bool_or(r.payouts_restricted_at is not null), false)
  from app_private.account_restrictions r
  where r.user_id = (select auth.uid());
$$;
revoke all on function public.my_restrictions() from public, anon, authenticated;
grant execute on function public.my_restrictions() to authenticated;

-- ---------------------------------------------------------------------------
-- Creators' controls
-- ---------------------------------------------------------------------------

-- The session's creator, or an operator, acting on a dare; returns it
-- locked. An operator acts on any session, ended ones too.
create function app_private.dare_for_moderator(p_dare_id uuid)
returns public.dares
language plpgsql
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  dare public.dares;
  session public.sessions;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  select * into dare from public.dares d where d.id = p_dare_id for update;
  if not found then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;
  if app_private.is_operator() then
    return dare;
  end if;
  select * into session from public.sessions s where s.id = dare.session_id;
  if session.creator_id <> caller then
    raise exception using message = 'error-not-session-creator', errcode = 'P0001';
  end if;
  if session.status <> 'active' then
    raise exception using message = 'error-session-not-active', errcode = 'P0001';
  end if;
  return dare;
end;
$$;
revoke all on function app_private.dare_for_moderator(uuid) from public, anon, authenticated, service_role;

-- A held dare approved: it is shown (and live) as an open dare.
create function public.approve_dare(p_dare_id uuid)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dare public.dares := app_private.dare_for_moderator(p_dare_id);
begin
  if dare.status <> 'held' then
    raise exception using message = 'error-dare-not-held', errcode = 'P0001';
  end if;
  update public.dares set status = 'open' where id = p_dare_id returning * into dare;
  return dare;
end;
$$;
revoke all on function public.approve_dare(uuid) from public, anon, authenticated;
grant execute on function public.approve_dare(uuid) to authenticated;

-- A dare taken off the page, the overlay and home (held ones rejected, shown
-- ones hidden, operators' removals): a running dare's boosts go back to its
-- boosters, like a rejection; a resolved one keeps its outcome. A removed
-- dare is seen by operators only.
create function app_private.remove_dare(p_dare_id uuid)
returns void
language plpgsql
security definer
set search_path = ''
as $$
declare
  was text;
begin
  select d.status into was from public.dares d where d.id = p_dare_id for update;
  if was is null or was = 'removed' then
    return;
  end if;
  update public.dares set status = 'removed', resolved_at = coalesce(resolved_at, now()) where id = p_dare_id;
  if was in ('held', 'open', 'accepted', 'voting') then
    perform app_private.refund_dares(array[p_dare_id]);
  end if;
end;
$$;
revoke all on function app_private.remove_dare(uuid) from public, anon, authenticated, service_role;

-- The creator (or an operator) hides a dare, or rejects a held one: removed,
-- running boosts refunded.
create function public.hide_dare(p_dare_id uuid)
returns public.dares
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  dare public.dares := app_private.dare_for_moderator(p_dare_id);
begin
  if dare.status = 'removed' then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;
  perform app_private.remove_dare(p_dare_id);
  select * into dare from public.dares d where d.id = p_dare_id;
  return dare;
end;
$$;
revoke all on function public.hide_dare(uuid) from public, anon, authenticated;
grant execute on function public.hide_dare(uuid) to authenticated;

-- The creator holds every new dare of their live session for review, or not.
create function public.set_hold_new_dares(p_session_id uuid, p_hold boolean)
returns public.sessions
language plpgsql
volatile
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
  perform app_private.assert_assurance();
  if p_hold is null then
    raise exception using message = 'error-invalid-setting', errcode = 'P0001';
  end if;
  update public.sessions s set hold_new_dares = p_hold
  where s.id = p_session_id and s.creator_id = caller and s.status = 'active'
  returning * into session;
  if not found then
    raise exception using message = 'error-session-not-active', errcode = 'P0001';
  end if;
  return session;
end;
$$;
revoke all on function public.set_hold_new_dares(uuid, boolean) from public, anon, authenticated;
grant execute on function public.set_hold_new_dares(uuid, boolean) to authenticated;

-- The creator bans a viewer who took part in one of their sessions (wrote,
-- boosted or voted): the viewer's running dares in the creator's live
-- sessions are removed and refunded, their boosts on the others given back;
-- from then on every dare, boost and vote of theirs there is refused.
create function public.ban_viewer(p_user_id uuid)
returns public.creator_bans
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
  ban public.creator_bans;
  theirs uuid;
  owed record;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  if p_user_id is null or p_user_id = caller then
    raise exception using message = 'error-ban-self', errcode = 'P0001';
  end if;
  if not exists (
    select 1 from public.dares d join public.sessions s on s.id = d.session_id
    where s.creator_id = caller and d.author_id = p_user_id
  ) and not exists (
    select 1 from public.boosts b join public.dares d on d.id = b.dare_id join public.sessions s on s.id = d.session_id
    where s.creator_id = caller and b.booster_id = p_user_id
  ) and not exists (
    select 1 from public.votes v join public.dares d on d.id = v.dare_id join public.sessions s on s.id = d.session_id
    where s.creator_id = caller and v.voter_id = p_user_id
  ) then
    raise exception using message = 'error-ban-unknown-user', errcode = 'P0001';
  end if;

  insert into public.creator_bans (creator_id, user_id) values (caller, p_user_id)
  on conflict (creator_id, user_id) do nothing
  returning * into ban;
  if not found then
    select * into ban from public.creator_bans b where b.creator_id = caller and b.user_id = p_user_id;
    return ban;
  end if;

  -- The running dares of the live sessions locked first, in id order (a
  -- boost locks its dare, then the wallet), then the refunds.
  perform 1 from public.dares d join public.sessions s on s.id = d.session_id
  where s.creator_id = caller and s.status = 'active' and d.status in ('held', 'open', 'accepted', 'voting')
  order by d.id
  for update of d;
  for theirs in
    select d.id from public.dares d join public.sessions s on s.id = d.session_id
    where s.creator_id = caller and s.status = 'active' and d.author_id = p_user_id
      and d.status in ('held', 'open', 'accepted', 'voting')
    order by d.id
  loop
    perform app_private.remove_dare(theirs);
  end loop;
  perform 1 from public.wallets w where w.id = p_user_id for update;
  for owed in
    select b.dare_id, sum(b.amount)::bigint as amount
    from public.boosts b join public.dares d on d.id = b.dare_id join public.sessions s on s.id = d.session_id
    where s.creator_id = caller and s.status = 'active' and b.booster_id = p_user_id and b.refunded_at is null
      and d.status in ('open', 'accepted', 'voting')
    group by b.dare_id
    order by b.dare_id
  loop
    perform ledger.transfer(ledger.pot_account(owed.dare_id), ledger.wallet_account(p_user_id), owed.amount,
      'refund', owed.dare_id::text, 'ban-refund:' || ban.id || ':' || owed.dare_id);
    update public.boosts set refunded_at = now()
    where dare_id = owed.dare_id and booster_id = p_user_id and refunded_at is null;
  end loop;
  return ban;
end;
$$;
revoke all on function public.ban_viewer(uuid) from public, anon, authenticated;
grant execute on function public.ban_viewer(uuid) to authenticated;

create function public.unban_viewer(p_user_id uuid)
returns void
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  delete from public.creator_bans b where b.creator_id = caller and b.user_id = p_user_id;
  if not found then
    raise exception using message = 'error-ban-not-found', errcode = 'P0001';
  end if;
end;
$$;
revoke all on function public.unban_viewer(uuid) from public, anon, authenticated;
grant execute on function public.unban_viewer(uuid) to authenticated;

-- The caller's bans with the banned viewers' names (settings lists them).
create function public.my_bans()
returns table (user_id uuid, username text, created_at timestamptz)
language sql
stable
security definer
set search_path = ''
as $$
  select b.user_id, p.username, b.created_at
  from public.creator_bans b left join public.profiles p on p.id = b.user_id
  where b.creator_id = (select auth.uid()) and (select app_private.has_assurance())
  order by b.created_at desc;
$$;
revoke all on function public.my_bans() from public, anon, authenticated;
grant execute on function public.my_bans() to authenticated;

-- ---------------------------------------------------------------------------
-- Reports (notice and action)
-- ---------------------------------------------------------------------------

-- A report of a dare, by a signed-in user or a visitor (then with a name and
-- an e-mail address): the reason from a fixed list, the reporter's details,
-- their good-faith statement (required), the dare's text as it was. Decided
-- by operators only; kept when the dare goes (its id set to null).
create table app_private.reports (
  id uuid primary key default gen_random_uuid(),
  dare_id uuid references public.dares (id) on delete set null,
  session_id uuid,
  dare_description text not null,
  dare_author_id uuid,
  reporter_id uuid references auth.users (id) on delete set null,
  reporter_name text
    constraint reports_reporter_name_valid check (char_length(reporter_name) between 1 and 100 and reporter_name !~ '[[:cntrl:]]'),
  reporter_email text
    constraint reports_reporter_email_valid check (char_length(reporter_email) <= 254 and reporter_email ~ '^[^@[:space:]]+@[^@[:space:]]+$'),
  reason text not null
    constraint reports_reason_valid
    check (reason in ('hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other')),
  details text not null
    constraint reports_details_valid check (char_length(details) between 1 and 1000 and details = btrim(details)),
  good_faith boolean not null constraint reports_good_faith check (good_faith),
  language text not null
    constraint reports_language_valid check (language in ('en', 'de', 'es', 'tr')),
  created_at timestamptz not null default now(),
  status text not null default 'open'
    constraint reports_status_valid check (status in ('open', 'actioned', 'dismissed')),
  decided_at timestamptz,
  constraint reports_decided_matches_status check ((status = 'open') = (decided_at is null)),
  constraint reports_reporter_known check (reporter_id is not null or (reporter_name is not null and reporter_email is not null))
);
create index reports_open_idx on app_private.reports (created_at) where status = 'open';
create index reports_dare_idx on app_private.reports (dare_id);
create index reports_reporter_idx on app_private.reports (reporter_id, created_at);
create index reports_email_idx on app_private.reports (lower(reporter_email), created_at);
revoke all on table app_private.reports from public, anon, authenticated, service_role;

-- Takes a report; the same reporter's open report of the same dare is
-- returned as it is (replayed). At most 5 reports a minute per reporter and
-- session. p_reporter is the signed-in caller (null: a visitor, whose name
-- and e-mail address are required).
create function app_private.take_report(
  p_reporter uuid, p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean,
  p_language text, p_name text, p_email text
)
returns table (report_id uuid, replayed boolean)
language plpgsql
security definer
set search_path = ''
as $$
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
$$;
revoke all on function app_private.take_report(uuid, uuid, text, text, boolean, text, text, text) from public, anon, authenticated, service_role;

-- A signed-in user reports a dare (the caller from auth.uid()).
create function public.report_dare(
  p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean, p_language text
)
returns table (report_id uuid, replayed boolean)
language plpgsql
volatile
security definer
set search_path = ''
as $$
declare
  caller uuid := (select auth.uid());
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  perform app_private.assert_assurance();
  return query select * from app_private.take_report(caller, p_dare_id, p_reason, p_details, p_good_faith, p_language, null, null);
end;
$$;
revoke all on function public.report_dare(uuid, text, text, boolean, text) from public, anon, authenticated;
grant execute on function public.report_dare(uuid, text, text, boolean, text) to authenticated;

-- A visitor's report, taken by the app's server (its owner connection) after
-- its per-address rate limit: no API role may call it, so nobody reports
-- around that limit through the Data API.
create function ledger.report_dare_as_visitor(
  p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean, p_language text, p_name text, p_email text
)
returns table (report_id uuid, replayed boolean)
language sql
volatile
set search_path = ''
as $$
  select * from app_private.take_report(null, p_dare_id, p_reason, p_details, p_good_faith, p_language, p_name, p_email);
$$;
revoke all on function ledger.report_dare_as_visitor(uuid, text, text, boolean, text, text, text) from public, anon, authenticated, service_role;

-- ---------------------------------------------------------------------------
-- Operators' decisions and appeals (append-only)
-- ---------------------------------------------------------------------------

create function app_private.refuse_change()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  raise exception using message = 'error-append-only', errcode = 'P0001';
end;
$$;
revoke all on function app_private.refuse_change() from public, anon, authenticated;

-- Every operator decision, with its statement of reasons: what was decided
-- (action), about what (the report, the dare, the user affected), which
-- rule (ground, the content rules of the terms), the facts and reasons
-- (explanation), whether automated means found the content (a dare the
-- filter held). appeal_of names the decision an appeal decision answers.
create table app_private.moderation_decisions (
  id uuid primary key default gen_random_uuid(),
  action text not null
    constraint moderation_decisions_action_valid check (action in (
      'remove_dare', 'dismiss_report', 'approve_dare', 'suspend_user', 'restrict_payouts', 'reinstate_user',
      'appeal_upheld', 'appeal_granted', 'approve_payout', 'reject_payout'
    )),
  report_id uuid,
  dare_id uuid,
  dare_description text,
  subject_id uuid,
  -- The payout an approve_payout or reject_payout decided (ledger.payouts).
  payout_id uuid,
  ground text not null
    constraint moderation_decisions_ground_valid
    check (ground in ('hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other', 'none')),
  explanation text not null
    constraint moderation_decisions_explanation_valid check (char_length(explanation) between 1 and 2000),
  automated_detection boolean not null default false,
  appeal_of uuid references app_private.moderation_decisions (id),
  decided_by uuid not null,
  created_at timestamptz not null default now()
);
create index moderation_decisions_subject_idx on app_private.moderation_decisions (subject_id, created_at);
revoke all on table app_private.moderation_decisions from public, anon, authenticated, service_role;
create trigger moderation_decisions_append_only
  before update or delete on app_private.moderation_decisions
  for each row execute function app_private.refuse_change();

-- One appeal per decision, by the user it affected, within six months.
create table app_private.moderation_appeals (
  id uuid primary key default gen_random_uuid(),
  decision_id uuid not null unique references app_private.moderation_decisions (id),
  appellant_id uuid not null,
  statement text not null
    constraint moderation_appeals_statement_valid check (char_length(statement) between 1 and 2000),
  created_at timestamptz not null default now()
);
revoke all on table app_private.moderation_appeals from public, anon, authenticated, service_role;
create trigger moderation_appeals_append_only
  before update or delete on app_private.moderation_appeals
  for each row execute function app_private.refuse_change();

create function app_private.assert_operator()
returns uuid
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not app_private.is_operator() then
    raise exception using message = 'error-not-operator', errcode = 'P0001';
  end if;
  return (select auth.uid());
end;
$$;
revoke all on function app_private.assert_operator() from public, anon, authenticated;

-- The operators' queue, oldest first: open reports and held dares, with the
-- context an operator needs (the dare, its session and channel, its author).
create function public.moderation_queue()
returns table (
  kind text,
  id uuid,
  created_at timestamptz,
  dare_id uuid,
  dare_description text,
  dare_status text,
  session_id uuid,
  session_title text,
  platform text,
  channel text,
  author_id uuid,
  author_username text,
  reason text,
  details text,
  reporter text,
  automated boolean
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app_private.assert_operator();
  return query
    select q.* from (
      select 'report'::text, r.id, r.created_at, r.dare_id, coalesce(d.description, r.dare_description), d.status,
        r.session_id, s.title, s.platform, s.channel, r.dare_author_id, p.username,
        r.reason, r.details, coalesce(rp.username, r.reporter_name), (d.status = 'held')
      from app_private.reports r
      left join public.dares d on d.id = r.dare_id
      left join public.sessions s on s.id = r.session_id
      left join public.profiles p on p.id = r.dare_author_id
      left join public.profiles rp on rp.id = r.reporter_id
      where r.status = 'open'
      union all
      select 'held', d.id, d.created_at, d.id, d.description, d.status,
        d.session_id, s.title, s.platform, s.channel, d.author_id, p.username,
        null, null, null, not s.hold_new_dares
      from public.dares d
      join public.sessions s on s.id = d.session_id
      left join public.profiles p on p.id = d.author_id
      where d.status = 'held'
    ) q
    order by 3, 2
    limit 200;
end;
$$;
revoke all on function public.moderation_queue() from public, anon, authenticated;
grant execute on function public.moderation_queue() to authenticated;

-- The appeals waiting for a decision, oldest first.
create function public.moderation_appeals_open()
returns table (
  appeal_id uuid, decision_id uuid, action text, ground text, explanation text, dare_description text,
  subject_id uuid, subject_username text, statement text, created_at timestamptz
)
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  perform app_private.assert_operator();
  return query
    select a.id, m.id, m.action, m.ground, m.explanation, m.dare_description, m.subject_id, p.username, a.statement, a.created_at
    from app_private.moderation_appeals a
    join app_private.moderation_decisions m on m.id = a.decision_id
    left join public.profiles p on p.id = m.subject_id
    where not exists (select 1 from app_private.moderation_decisions x where x.appeal_of = m.id)
    order by a.created_at
    limit 200;
end;
$$;
revoke all on function public.moderation_appeals_open() from public, anon, authenticated;
grant execute on function public.moderation_appeals_open() to authenticated;

-- An operator's decision. p_action:
--  remove_dare      (p_target = a dare, or a report of it): the dare removed
--                   (refunded if running), its open reports actioned;
--  dismiss_report   (a report): nothing done to the dare;
--  approve_dare     (a held dare): shown;
--  suspend_user     (a user, or a report: its dare's author): no dares,
--                   boosts, votes or sessions until lifted by an appeal;
--  restrict_payouts (the same): payouts restricted;
--  reinstate_user   (the same): both lifted, when the time set for them ends;
--  appeal_upheld, appeal_granted (an appealed decision): the appeal decided;
--                   granted lifts a suspension or payout restriction (a
--                   removed dare stays removed: its coins went back);
--  approve_payout   (a payout waiting for review, ledger.payouts): sent;
--  reject_payout    (the same): not sent, its coins back in the wallet
--                   (docs/product.md §14.4).
-- Returns the decision with what the app needs to send the statement of
-- reasons: the user it affects, their e-mail address and language.
create function public.moderate(p_action text, p_target uuid, p_ground text, p_explanation text)
returns table (decision_id uuid, subject_id uuid, subject_email text, subject_language text, reporter_email text, reporter_language text)
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.moderate(text, uuid, text, text) from public, anon, authenticated;
grant execute on function public.moderate(text, uuid, text, text) to authenticated;

-- The decisions against a user, which they may appeal (docs/product.md
-- §13.9): a removed dare, a suspension, restricted payouts, a rejected payout.
create function app_private.appealable(p_action text)
returns boolean
language sql
immutable
set search_path = ''
as $$
  select p_action in ('remove_dare', 'suspend_user', 'restrict_payouts', 'reject_payout');
$$;
revoke all on function app_private.appealable(text) from public, anon, authenticated;

-- A decision as the user it affected reads it (the appeal page), with
-- whether they may still appeal it.
create function public.my_decision(p_decision_id uuid)
returns table (
  id uuid, action text, ground text, explanation text, dare_description text, automated_detection boolean,
  created_at timestamptz, appealed boolean, appealable boolean
)
language sql
stable
security definer
set search_path = ''
as $$
  select m.id, m.action, m.ground, m.explanation, m.dare_description, m.automated_detection, m.created_at,
    exists (select 1 from app_private.moderation_appeals a where a.decision_id = m.id),
    app_private.appealable(m.action)
      and m.created_at > now() - interval '6 months'
      and not exists (select 1 from app_private.moderation_appeals a where a.decision_id = m.id)
  from app_private.moderation_decisions m
  where m.id = p_decision_id and m.subject_id = (select auth.uid()) and (select app_private.has_assurance());
$$;
revoke all on function public.my_decision(uuid) from public, anon, authenticated;
grant execute on function public.my_decision(uuid) to authenticated;

-- The affected user appeals a decision, once, within six months.
create function public.appeal_decision(p_decision_id uuid, p_statement text)
returns uuid
language plpgsql
volatile
security definer
set search_path = ''
as $$
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
$$;
revoke all on function public.appeal_decision(uuid, text) from public, anon, authenticated;
grant execute on function public.appeal_decision(uuid, text) to authenticated;
