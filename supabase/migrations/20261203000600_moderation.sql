-- Moderation and notice-and-action (docs/product.md §13, docs/decisions/050-moderation.md).
-- Written by npm run db:diff from supabase/schemas, then ordered by hand: the
-- filter's normaliser before the table whose generated columns call it, the
-- check constraints in their schema wording, the privileges at the end.
--  * the text filter (app_private.text_verdict) holds or refuses dares and
--    refuses titles; built-in terms the app writes at start-up, creators' own
--    blocked terms;
--  * dares gain the states held (seen by author, creator, operators) and
--    removed (operators only); live_dares, session totals and live updates
--    leave both out; a ban's refunds mark boosts refunded_at;
--  * creators approve, reject, hide, ban and unban, and hold a session's new
--    dares; create_dare, boost_dare and vote_for_dare refuse banned and
--    suspended callers, and at most 5 dares a minute per author and session;
--  * reports (signed in, or visitors through the server), operators'
--    decisions and appeals (append-only), account restrictions.

drop trigger if exists "dares_mark_update" on "public"."dares";

drop policy "Dares are public" on "public"."dares";

alter table "public"."dares" drop constraint "dares_resolved_at_matches_status";

alter table "public"."dares" drop constraint "dares_status_valid";

drop function if exists "app_private"."live_dares"(p_session_id uuid, p_dare_ids uuid[]);

drop function if exists "public"."create_dare"(p_description text, p_session_id uuid, p_reward integer, p_idempotency_key text);


-- The filter's normaliser first: the generated columns of app_private.filter_terms call it.
set check_function_bodies = off;

CREATE OR REPLACE FUNCTION app_private.filter_stretched(p_tokens text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select ' ' || coalesce(string_agg(
      case when w ~ '([a-z])\1\1' then regexp_replace(w, '([a-z])\1+', '\1', 'g') else '~' end, ' ' order by n), '') || ' '
  from unnest(string_to_array(btrim(p_tokens), ' ')) with ordinality as t (w, n);
$function$
;

CREATE OR REPLACE FUNCTION app_private.filter_squeezed(p_tokens text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select regexp_replace(p_tokens, '([a-z])\1+', '\1', 'g');
$function$
;

CREATE OR REPLACE FUNCTION app_private.filter_tokens(p_text text)
 RETURNS text
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
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
$function$
;

  create table "app_private"."account_restrictions" (
    "user_id" uuid not null,
    "suspended_at" timestamp with time zone,
    "payouts_restricted_at" timestamp with time zone
      );



  create table "app_private"."filter_terms" (
    "term" text not null,
    "language" text not null,
    "prefix" boolean not null generated always as (("right"(term, 1) = '*'::text)) stored,
    "tokens" text not null generated always as (btrim(app_private.filter_tokens(rtrim(term, '*'::text)))) stored,
    "squeezed" text not null generated always as (btrim(app_private.filter_squeezed(app_private.filter_tokens(rtrim(term, '*'::text))))) stored
      );



  create table "app_private"."moderation_appeals" (
    "id" uuid not null default gen_random_uuid(),
    "decision_id" uuid not null,
    "appellant_id" uuid not null,
    "statement" text not null,
    "created_at" timestamp with time zone not null default now()
      );



  create table "app_private"."moderation_decisions" (
    "id" uuid not null default gen_random_uuid(),
    "action" text not null,
    "report_id" uuid,
    "dare_id" uuid,
    "dare_description" text,
    "subject_id" uuid,
    "ground" text not null,
    "explanation" text not null,
    "automated_detection" boolean not null default false,
    "appeal_of" uuid,
    "decided_by" uuid not null,
    "created_at" timestamp with time zone not null default now()
      );



  create table "app_private"."operators" (
    "user_id" uuid not null,
    "granted_at" timestamp with time zone not null default now()
      );



  create table "app_private"."reports" (
    "id" uuid not null default gen_random_uuid(),
    "dare_id" uuid,
    "session_id" uuid,
    "dare_description" text not null,
    "dare_author_id" uuid,
    "reporter_id" uuid,
    "reporter_name" text,
    "reporter_email" text,
    "reason" text not null,
    "details" text not null,
    "good_faith" boolean not null,
    "language" text not null,
    "created_at" timestamp with time zone not null default now(),
    "status" text not null default 'open'::text,
    "decided_at" timestamp with time zone
      );



  create table "public"."blocked_terms" (
    "creator_id" uuid not null,
    "term" text not null,
    "created_at" timestamp with time zone not null default now()
      );


alter table "public"."blocked_terms" enable row level security;


  create table "public"."creator_bans" (
    "id" bigint generated always as identity not null,
    "creator_id" uuid not null,
    "user_id" uuid not null,
    "created_at" timestamp with time zone not null default now()
      );


alter table "public"."creator_bans" enable row level security;

alter table "public"."boosts" add column "refunded_at" timestamp with time zone;

alter table "public"."profiles" add column "language" text;

alter table "public"."sessions" add column "hold_new_dares" boolean not null default false;

CREATE UNIQUE INDEX account_restrictions_pkey ON app_private.account_restrictions USING btree (user_id);

CREATE UNIQUE INDEX filter_terms_pkey ON app_private.filter_terms USING btree (term);

CREATE UNIQUE INDEX moderation_appeals_decision_id_key ON app_private.moderation_appeals USING btree (decision_id);

CREATE UNIQUE INDEX moderation_appeals_pkey ON app_private.moderation_appeals USING btree (id);

CREATE UNIQUE INDEX moderation_decisions_pkey ON app_private.moderation_decisions USING btree (id);

CREATE INDEX moderation_decisions_subject_idx ON app_private.moderation_decisions USING btree (subject_id, created_at);

CREATE UNIQUE INDEX operators_pkey ON app_private.operators USING btree (user_id);

CREATE INDEX reports_dare_idx ON app_private.reports USING btree (dare_id);

CREATE INDEX reports_email_idx ON app_private.reports USING btree (lower(reporter_email), created_at);

CREATE INDEX reports_open_idx ON app_private.reports USING btree (created_at) WHERE (status = 'open'::text);

CREATE UNIQUE INDEX reports_pkey ON app_private.reports USING btree (id);

CREATE INDEX reports_reporter_idx ON app_private.reports USING btree (reporter_id, created_at);

CREATE UNIQUE INDEX blocked_terms_pkey ON public.blocked_terms USING btree (creator_id, term);

CREATE UNIQUE INDEX creator_bans_pair ON public.creator_bans USING btree (creator_id, user_id);

CREATE UNIQUE INDEX creator_bans_pkey ON public.creator_bans USING btree (id);

CREATE INDEX creator_bans_user_idx ON public.creator_bans USING btree (user_id);

alter table "app_private"."account_restrictions" add constraint "account_restrictions_pkey" PRIMARY KEY using index "account_restrictions_pkey";

alter table "app_private"."filter_terms" add constraint "filter_terms_pkey" PRIMARY KEY using index "filter_terms_pkey";

alter table "app_private"."moderation_appeals" add constraint "moderation_appeals_pkey" PRIMARY KEY using index "moderation_appeals_pkey";

alter table "app_private"."moderation_decisions" add constraint "moderation_decisions_pkey" PRIMARY KEY using index "moderation_decisions_pkey";

alter table "app_private"."operators" add constraint "operators_pkey" PRIMARY KEY using index "operators_pkey";

alter table "app_private"."reports" add constraint "reports_pkey" PRIMARY KEY using index "reports_pkey";

alter table "public"."blocked_terms" add constraint "blocked_terms_pkey" PRIMARY KEY using index "blocked_terms_pkey";

alter table "public"."creator_bans" add constraint "creator_bans_pkey" PRIMARY KEY using index "creator_bans_pkey";

alter table "app_private"."account_restrictions" add constraint "account_restrictions_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "app_private"."account_restrictions" validate constraint "account_restrictions_user_id_fkey";

alter table "app_private"."filter_terms" add constraint "filter_terms_language_valid" CHECK ((language = ANY (ARRAY['en'::text, 'de'::text, 'es'::text, 'tr'::text]))) not valid;

alter table "app_private"."filter_terms" validate constraint "filter_terms_language_valid";

alter table "app_private"."filter_terms" add constraint "filter_terms_term_valid" check (char_length(term) between 1 and 61 and term !~ '[[:cntrl:]]') not valid;

alter table "app_private"."filter_terms" validate constraint "filter_terms_term_valid";

alter table "app_private"."moderation_appeals" add constraint "moderation_appeals_decision_id_fkey" FOREIGN KEY (decision_id) REFERENCES app_private.moderation_decisions(id) not valid;

alter table "app_private"."moderation_appeals" validate constraint "moderation_appeals_decision_id_fkey";

alter table "app_private"."moderation_appeals" add constraint "moderation_appeals_decision_id_key" UNIQUE using index "moderation_appeals_decision_id_key";

alter table "app_private"."moderation_appeals" add constraint "moderation_appeals_statement_valid" CHECK (((char_length(statement) >= 1) AND (char_length(statement) <= 2000))) not valid;

alter table "app_private"."moderation_appeals" validate constraint "moderation_appeals_statement_valid";

alter table "app_private"."moderation_decisions" add constraint "moderation_decisions_action_valid" check (action in (
      'remove_dare', 'dismiss_report', 'approve_dare', 'suspend_user', 'restrict_payouts', 'reinstate_user',
      'appeal_upheld', 'appeal_granted'
    )) not valid;

alter table "app_private"."moderation_decisions" validate constraint "moderation_decisions_action_valid";

alter table "app_private"."moderation_decisions" add constraint "moderation_decisions_appeal_of_fkey" FOREIGN KEY (appeal_of) REFERENCES app_private.moderation_decisions(id) not valid;

alter table "app_private"."moderation_decisions" validate constraint "moderation_decisions_appeal_of_fkey";

alter table "app_private"."moderation_decisions" add constraint "moderation_decisions_explanation_valid" CHECK (((char_length(explanation) >= 1) AND (char_length(explanation) <= 2000))) not valid;

alter table "app_private"."moderation_decisions" validate constraint "moderation_decisions_explanation_valid";

alter table "app_private"."moderation_decisions" add constraint "moderation_decisions_ground_valid" CHECK ((ground = ANY (ARRAY['hate'::text, 'harassment'::text, 'sexual'::text, 'violence'::text, 'illegal'::text, 'spam'::text, 'other'::text, 'none'::text]))) not valid;

alter table "app_private"."moderation_decisions" validate constraint "moderation_decisions_ground_valid";

alter table "app_private"."operators" add constraint "operators_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "app_private"."operators" validate constraint "operators_user_id_fkey";

alter table "app_private"."reports" add constraint "reports_dare_id_fkey" FOREIGN KEY (dare_id) REFERENCES dares(id) ON DELETE SET NULL not valid;

alter table "app_private"."reports" validate constraint "reports_dare_id_fkey";

alter table "app_private"."reports" add constraint "reports_decided_matches_status" CHECK (((status = 'open'::text) = (decided_at IS NULL))) not valid;

alter table "app_private"."reports" validate constraint "reports_decided_matches_status";

alter table "app_private"."reports" add constraint "reports_details_valid" check (char_length(details) between 1 and 1000 and details = btrim(details)) not valid;

alter table "app_private"."reports" validate constraint "reports_details_valid";

alter table "app_private"."reports" add constraint "reports_good_faith" CHECK (good_faith) not valid;

alter table "app_private"."reports" validate constraint "reports_good_faith";

alter table "app_private"."reports" add constraint "reports_language_valid" CHECK ((language = ANY (ARRAY['en'::text, 'de'::text, 'es'::text, 'tr'::text]))) not valid;

alter table "app_private"."reports" validate constraint "reports_language_valid";

alter table "app_private"."reports" add constraint "reports_reason_valid" CHECK ((reason = ANY (ARRAY['hate'::text, 'harassment'::text, 'sexual'::text, 'violence'::text, 'illegal'::text, 'spam'::text, 'other'::text]))) not valid;

alter table "app_private"."reports" validate constraint "reports_reason_valid";

alter table "app_private"."reports" add constraint "reports_reporter_email_valid" CHECK (((char_length(reporter_email) <= 254) AND (reporter_email ~ '^[^@[:space:]]+@[^@[:space:]]+$'::text))) not valid;

alter table "app_private"."reports" validate constraint "reports_reporter_email_valid";

alter table "app_private"."reports" add constraint "reports_reporter_id_fkey" FOREIGN KEY (reporter_id) REFERENCES auth.users(id) ON DELETE SET NULL not valid;

alter table "app_private"."reports" validate constraint "reports_reporter_id_fkey";

alter table "app_private"."reports" add constraint "reports_reporter_known" CHECK (((reporter_id IS NOT NULL) OR ((reporter_name IS NOT NULL) AND (reporter_email IS NOT NULL)))) not valid;

alter table "app_private"."reports" validate constraint "reports_reporter_known";

alter table "app_private"."reports" add constraint "reports_reporter_name_valid" check (char_length(reporter_name) between 1 and 100 and reporter_name !~ '[[:cntrl:]]') not valid;

alter table "app_private"."reports" validate constraint "reports_reporter_name_valid";

alter table "app_private"."reports" add constraint "reports_status_valid" CHECK ((status = ANY (ARRAY['open'::text, 'actioned'::text, 'dismissed'::text]))) not valid;

alter table "app_private"."reports" validate constraint "reports_status_valid";

alter table "public"."blocked_terms" add constraint "blocked_terms_creator_id_fkey" FOREIGN KEY (creator_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."blocked_terms" validate constraint "blocked_terms_creator_id_fkey";

alter table "public"."blocked_terms" add constraint "blocked_terms_term_valid" check (char_length(term) between 2 and 61 and term = btrim(term) and term !~ '[[:cntrl:]]'
      and term ~ '^[^*]+[*]?$') not valid;

alter table "public"."blocked_terms" validate constraint "blocked_terms_term_valid";

alter table "public"."creator_bans" add constraint "creator_bans_creator_id_fkey" FOREIGN KEY (creator_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."creator_bans" validate constraint "creator_bans_creator_id_fkey";

alter table "public"."creator_bans" add constraint "creator_bans_not_self" CHECK ((creator_id <> user_id)) not valid;

alter table "public"."creator_bans" validate constraint "creator_bans_not_self";

alter table "public"."creator_bans" add constraint "creator_bans_user_id_fkey" FOREIGN KEY (user_id) REFERENCES auth.users(id) ON DELETE CASCADE not valid;

alter table "public"."creator_bans" validate constraint "creator_bans_user_id_fkey";

alter table "public"."profiles" add constraint "profiles_language_valid" CHECK ((language = ANY (ARRAY['en'::text, 'de'::text, 'es'::text, 'tr'::text]))) not valid;

alter table "public"."profiles" validate constraint "profiles_language_valid";

alter table "public"."dares" add constraint "dares_resolved_at_matches_status" CHECK ((((status = ANY (ARRAY['completed'::text, 'failed'::text, 'rejected'::text, 'expired'::text])) <= (resolved_at IS NOT NULL)) AND ((resolved_at IS NOT NULL) <= (status = ANY (ARRAY['completed'::text, 'failed'::text, 'rejected'::text, 'expired'::text, 'removed'::text]))))) not valid;

alter table "public"."dares" validate constraint "dares_resolved_at_matches_status";

alter table "public"."dares" add constraint "dares_status_valid" CHECK ((status = ANY (ARRAY['held'::text, 'open'::text, 'accepted'::text, 'voting'::text, 'completed'::text, 'failed'::text, 'rejected'::text, 'expired'::text, 'removed'::text]))) not valid;

alter table "public"."dares" validate constraint "dares_status_valid";

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION app_private.assert_not_banned(p_creator uuid, p_user uuid)
 RETURNS void
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if exists (select 1 from public.creator_bans b where b.creator_id = p_creator and b.user_id = p_user) then
    raise exception using message = 'error-banned', errcode = 'P0001';
  end if;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.assert_operator()
 RETURNS uuid
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  if not app_private.is_operator() then
    raise exception using message = 'error-not-operator', errcode = 'P0001';
  end if;
  return (select auth.uid());
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.dare_for_moderator(p_dare_id uuid)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION app_private.filter_matches(p_tokens text, p_squeezed text, p_term text, p_term_squeezed text, p_prefix boolean)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
 SET search_path TO ''
AS $function$
  select p_term <> ''
    and (
      strpos(p_tokens, ' ' || p_term || case when p_prefix then '' else ' ' end) > 0
      or (char_length(replace(p_term_squeezed, ' ', '')) >= 4
        and strpos(p_squeezed, ' ' || p_term_squeezed || case when p_prefix then '' else ' ' end) > 0)
    );
$function$
;

CREATE OR REPLACE FUNCTION app_private.is_operator()
 RETURNS boolean
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select (select auth.uid()) is not null
    and exists (select 1 from app_private.operators o where o.user_id = (select auth.uid()))
    and app_private.has_assurance();
$function$
;

CREATE OR REPLACE FUNCTION app_private.live_dares(p_session_id uuid, p_dare_ids uuid[], p_reader uuid DEFAULT NULL::uuid)
 RETURNS TABLE(id uuid, description text, reward bigint, status text, pot bigint, author_id uuid, author_username text, boosters integer, yes_votes integer, no_votes integer, voting_ends_at timestamp with time zone, created_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select d.id, d.description, d.reward, d.status,
    case when d.status in ('open', 'accepted', 'voting') then coalesce(a.balance, 0)
      else (select coalesce(sum(b.amount), 0) from public.boosts b where b.dare_id = d.id and b.refunded_at is null)
    end::bigint,
    d.author_id, p.username,
    (select count(distinct b.booster_id)::integer from public.boosts b where b.dare_id = d.id and b.refunded_at is null),
    (select count(*)::integer from public.votes v where v.dare_id = d.id and v.vote),
    (select count(*)::integer from public.votes v where v.dare_id = d.id and not v.vote),
    d.voting_ends_at, d.created_at
  from public.dares d
  left join ledger.accounts a on a.kind = 'pot' and a.dare_id = d.id
  left join public.profiles p on p.id = d.author_id
  where d.session_id = p_session_id and (p_dare_ids is null or d.id = any (p_dare_ids))
    and (
      d.status not in ('held', 'removed')
      or (d.status = 'held' and p_reader is not null and (
        d.author_id = p_reader
        or exists (select 1 from public.sessions s where s.id = d.session_id and s.creator_id = p_reader)
        or exists (select 1 from app_private.operators o where o.user_id = p_reader)
      ))
    );
$function$
;

CREATE OR REPLACE FUNCTION app_private.refuse_change()
 RETURNS trigger
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
begin
  raise exception using message = 'error-append-only', errcode = 'P0001';
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.remove_dare(p_dare_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION app_private.set_filter_terms(p_terms jsonb)
 RETURNS void
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
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
  select r.id into existing from app_private.reports r
  where r.dare_id = p_dare_id and r.status = 'open'
    and (r.reporter_id = p_reporter or (p_reporter is null and r.reporter_id is null and lower(r.reporter_email) = email));
  if existing is not null then
    return query select existing, true;
    return;
  end if;
  if (
    select count(*) from app_private.reports r
    where r.session_id = dare.session_id and r.created_at > now() - interval '1 minute'
      and (r.reporter_id = p_reporter or (p_reporter is null and r.reporter_id is null and lower(r.reporter_email) = email))
  ) >= 5 then
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

CREATE OR REPLACE FUNCTION app_private.text_verdict(p_text text, p_creator uuid)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION ledger.report_dare_as_visitor(p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean, p_language text, p_name text, p_email text)
 RETURNS TABLE(report_id uuid, replayed boolean)
 LANGUAGE sql
 SET search_path TO ''
AS $function$
  select * from app_private.take_report(null, p_dare_id, p_reason, p_details, p_good_faith, p_language, p_name, p_email);
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
  if not found or decision.action not in ('remove_dare', 'suspend_user', 'restrict_payouts') then
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

CREATE OR REPLACE FUNCTION public.approve_dare(p_dare_id uuid)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  dare public.dares := app_private.dare_for_moderator(p_dare_id);
begin
  if dare.status <> 'held' then
    raise exception using message = 'error-dare-not-held', errcode = 'P0001';
  end if;
  update public.dares set status = 'open' where id = p_dare_id returning * into dare;
  return dare;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.ban_viewer(p_user_id uuid)
 RETURNS creator_bans
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.create_dare(p_description text, p_session_id uuid, p_reward integer, p_idempotency_key text, p_language text DEFAULT NULL::text)
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
  verdict text;
begin
  if p_idempotency_key is null or p_idempotency_key !~ '^[!-~]{8,190}$' then
    raise exception using message = 'error-invalid-idempotency-key', errcode = 'P0001';
  end if;
  if p_language is not null and p_language not in ('en', 'de', 'es', 'tr') then
    raise exception using message = 'error-invalid-language', errcode = 'P0001';
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
  perform app_private.assert_not_banned(session.creator_id, caller);

  if (
    select count(*) from public.dares d
    where d.session_id = p_session_id and d.author_id = caller and d.created_at > now() - interval '1 minute'
  ) >= 5 then
    raise exception using message = 'error-too-many-dares', errcode = 'P0001';
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

  verdict := app_private.text_verdict(description, session.creator_id);
  if verdict = 'refused' then
    raise exception using message = 'error-dare-blocked-term', errcode = 'P0001';
  end if;

  insert into public.dares (session_id, author_id, description, reward, idempotency_key, status)
  values (p_session_id, caller, description, p_reward, 'dare:' || p_idempotency_key,
    case when verdict = 'held' or session.hold_new_dares then 'held' else 'open' end)
  returning * into dare;

  if p_language is not null then
    update public.profiles set language = p_language where id = caller and language is distinct from p_language;
  end if;

  if p_reward > 0 then
    perform app_private.record_boost(dare.id, caller, p_reward, 'boost:' || p_idempotency_key);
  end if;
  return dare;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.hide_dare(p_dare_id uuid)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
  subject uuid;
  automated boolean := false;
begin
  if p_action is null or p_action not in (
    'remove_dare', 'dismiss_report', 'approve_dare', 'suspend_user', 'restrict_payouts', 'reinstate_user',
    'appeal_upheld', 'appeal_granted'
  ) then
    raise exception using message = 'error-invalid-decision', errcode = 'P0001';
  end if;
  if p_ground is null or p_ground not in ('hate', 'harassment', 'sexual', 'violence', 'illegal', 'spam', 'other', 'none') then
    raise exception using message = 'error-invalid-report-reason', errcode = 'P0001';
  end if;
  if explanation is null or explanation = '' or char_length(explanation) > 2000 then
    raise exception using message = 'error-decision-explanation-required', errcode = 'P0001';
  end if;

  if p_action in ('appeal_upheld', 'appeal_granted') then
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

CREATE OR REPLACE FUNCTION public.moderation_appeals_open()
 RETURNS TABLE(appeal_id uuid, decision_id uuid, action text, ground text, explanation text, dare_description text, subject_id uuid, subject_username text, statement text, created_at timestamp with time zone)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.moderation_queue()
 RETURNS TABLE(kind text, id uuid, created_at timestamp with time zone, dare_id uuid, dare_description text, dare_status text, session_id uuid, session_title text, platform text, channel text, author_id uuid, author_username text, reason text, details text, reporter text, automated boolean)
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.my_bans()
 RETURNS TABLE(user_id uuid, username text, created_at timestamp with time zone)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select b.user_id, p.username, b.created_at
  from public.creator_bans b left join public.profiles p on p.id = b.user_id
  where b.creator_id = (select auth.uid()) and (select app_private.has_assurance())
  order by b.created_at desc;
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
    m.action in ('remove_dare', 'suspend_user', 'restrict_payouts')
      and m.created_at > now() - interval '6 months'
      and not exists (select 1 from app_private.moderation_appeals a where a.decision_id = m.id)
  from app_private.moderation_decisions m
  where m.id = p_decision_id and m.subject_id = (select auth.uid()) and (select app_private.has_assurance());
$function$
;

CREATE OR REPLACE FUNCTION public.my_restrictions()
 RETURNS TABLE(suspended boolean, payouts_restricted boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select coalesce(bool_or(r.suspended_at is not null), false), coalesce(bool_or(r.payouts_restricted_at is not null), false)
  from app_private.account_restrictions r
  where r.user_id = (select auth.uid());
$function$
;

CREATE OR REPLACE FUNCTION public.report_dare(p_dare_id uuid, p_reason text, p_details text, p_good_faith boolean, p_language text)
 RETURNS TABLE(report_id uuid, replayed boolean)
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
  return query select * from app_private.take_report(caller, p_dare_id, p_reason, p_details, p_good_faith, p_language, null, null);
end;
$function$
;

CREATE OR REPLACE FUNCTION public.set_blocked_terms(p_terms text[])
 RETURNS SETOF blocked_terms
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.set_hold_new_dares(p_session_id uuid, p_hold boolean)
 RETURNS sessions
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
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
$function$
;

CREATE OR REPLACE FUNCTION public.unban_viewer(p_user_id uuid)
 RETURNS void
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
  delete from public.creator_bans b where b.creator_id = caller and b.user_id = p_user_id;
  if not found then
    raise exception using message = 'error-ban-not-found', errcode = 'P0001';
  end if;
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
  if exists (
    select 1 from app_private.account_restrictions r where r.user_id = caller and r.suspended_at is not null
  ) then
    raise exception using message = 'error-account-suspended', errcode = 'P0001';
  end if;
  return caller;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.close_dare(p_dare_id uuid, p_status text)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  update public.dares set status = p_status, resolved_at = now()
  where id = p_dare_id and status in ('held', 'open', 'accepted');
  if found then
    perform app_private.refund_dares(array[p_dare_id]);
  end if;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.mark_sessions_of_dare_rows()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into app_private.realtime_marks (topic, dare_id)
  select 'session_updates_' || d.session_id, d.id
  from (select distinct c.dare_id from changed c) c
  join public.dares d on d.id = c.dare_id
  where d.status <> 'held';
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.mark_sessions_of_dares()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into app_private.realtime_marks (topic, dare_id, dare_created)
  select 'session_updates_' || d.session_id, d.id, o.status = 'held'
  from changed d join before o on o.id = d.id
  where d.status <> 'held';
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.mark_sessions_of_new_dares()
 RETURNS trigger
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  insert into app_private.realtime_marks (topic, dare_id, dare_created)
  select 'session_updates_' || d.session_id, d.id, true from changed d where d.status <> 'held';
  return null;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.refund_dares(p_dare_ids uuid[])
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  owed record;
  gone_dares uuid[] := '{}';
  gone_boosters uuid[] := '{}';
  gone_amounts bigint[] := '{}';
begin
  for owed in
    select b.dare_id, b.booster_id, sum(b.amount)::bigint as amount
    from public.boosts b
    where b.dare_id = any (p_dare_ids) and b.refunded_at is null
    group by b.booster_id, b.dare_id
    order by b.booster_id, b.dare_id
  loop
    -- Locked, so an account being deleted meanwhile is either still there
    -- (its deletion waits) or gone (the coins go to the forfeit account).
    if exists (select 1 from public.wallets w where w.id = owed.booster_id for update) then
      perform ledger.transfer(ledger.pot_account(owed.dare_id), ledger.wallet_account(owed.booster_id), owed.amount,
        'refund', owed.dare_id::text, 'refund:' || owed.dare_id::text || ':' || owed.booster_id::text);
    else
      gone_dares := gone_dares || owed.dare_id;
      gone_boosters := gone_boosters || owed.booster_id;
      gone_amounts := gone_amounts || owed.amount;
    end if;
  end loop;
  for i in 1 .. coalesce(array_length(gone_dares, 1), 0) loop
    perform ledger.transfer(ledger.pot_account(gone_dares[i]), ledger.system_account('forfeit'), gone_amounts[i],
      'forfeit', gone_dares[i]::text, 'refund:' || gone_dares[i]::text || ':' || gone_boosters[i]::text);
  end loop;
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.settle_stopped_session(p_session_id uuid)
 RETURNS void
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  expired uuid[];
begin
  -- Every dare locked first, then the refunds: a boost locks its dare, then
  -- the booster's wallet, so locking dare after dare between refunds (which
  -- lock wallets) could deadlock with a boost under way. The refunds then go
  -- out in booster order across the dares (refund_dares).
  perform 1 from public.dares d
  where d.session_id = p_session_id and d.status in ('held', 'open', 'accepted')
  order by d.id
  for update;
  with closed as (
    update public.dares d set status = 'expired', resolved_at = now()
    where d.session_id = p_session_id and d.status in ('held', 'open', 'accepted')
    returning d.id
  )
  select coalesce(array_agg(closed.id), '{}') into expired from closed;
  perform app_private.refund_dares(expired);
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
  perform app_private.assert_not_banned(session.creator_id, caller);
  if dare.status not in ('open', 'accepted') then
    raise exception using message = 'error-dare-not-boostable', errcode = 'P0001';
  end if;

  perform app_private.record_boost(dare.id, caller, p_amount, 'boost:' || p_idempotency_key);
  return dare;
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
  if exists (
    select 1 from app_private.account_restrictions r where r.user_id = caller and r.suspended_at is not null
  ) then
    raise exception using message = 'error-account-suspended', errcode = 'P0001';
  end if;
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

CREATE OR REPLACE FUNCTION public.reject_dare(p_dare_id uuid, p_idempotency_key text DEFAULT NULL::text)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller uuid := (select auth.uid());
  dare public.dares;
begin
  if caller is null then
    raise exception using message = 'error-not-authenticated', errcode = 'P0001';
  end if;
  if app_private.replayed_call('reject', p_idempotency_key, caller, p_dare_id) is not null then
    select * into dare from public.dares d where d.id = p_dare_id;
    return dare;
  end if;
  dare := app_private.dare_for_creator(p_dare_id);
  if dare.status not in ('held', 'open', 'accepted') then
    raise exception using message = 'error-dare-not-rejectable', errcode = 'P0001';
  end if;
  -- A held dare rejected is never shown, not even as rejected: removed.
  if dare.status = 'held' then
    perform app_private.remove_dare(p_dare_id);
  else
    perform app_private.close_dare(p_dare_id, 'rejected');
  end if;
  perform app_private.record_call('reject', p_idempotency_key, caller, p_dare_id);
  select * into dare from public.dares d where d.id = p_dare_id;
  return dare;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.session_dare(p_dare_id uuid)
 RETURNS TABLE(id uuid, description text, reward bigint, status text, pot bigint, author_id uuid, author_username text, boosters integer, yes_votes integer, no_votes integer, voting_ends_at timestamp with time zone, created_at timestamp with time zone, my_boost bigint, my_vote boolean)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select l.*,
    (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid()) and b.refunded_at is null and (select app_private.has_assurance())),
    (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()) and (select app_private.has_assurance()))
  from public.dares d
  cross join lateral app_private.live_dares(d.session_id, array[d.id],
    case when (select app_private.has_assurance()) then (select auth.uid()) end) l
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
      (select coalesce(sum(b.amount), 0)::bigint from public.boosts b where b.dare_id = l.id and b.booster_id = (select auth.uid()) and b.refunded_at is null and (select app_private.has_assurance())),
      (select v.vote from public.votes v where v.dare_id = l.id and v.voter_id = (select auth.uid()) and (select app_private.has_assurance()))
    from app_private.live_dares(p_session_id, null,
      case when (select app_private.has_assurance()) then (select auth.uid()) end) l
    order by (l.status in ('open', 'accepted', 'voting')) desc, l.pot desc, l.created_at, l.id;
end;
$function$
;

CREATE OR REPLACE FUNCTION public.session_totals(p_session_id uuid)
 RETURNS TABLE(dares integer, pot bigint)
 LANGUAGE sql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
  select count(*)::integer,
    coalesce(sum(a.balance) filter (where d.status in ('open', 'accepted', 'voting')), 0)::bigint
  from public.dares d
  left join ledger.accounts a on a.kind = 'pot' and a.dare_id = d.id
  where d.session_id = p_session_id and d.status not in ('held', 'removed');
$function$
;

CREATE OR REPLACE FUNCTION public.vote_for_dare(p_dare_id uuid, p_vote boolean)
 RETURNS dares
 LANGUAGE plpgsql
 SECURITY DEFINER
 SET search_path TO ''
AS $function$
declare
  caller uuid := app_private.assert_participant();
  dare public.dares;
  creator uuid;
begin
  if p_vote is null then
    raise exception using message = 'error-invalid-vote', errcode = 'P0001';
  end if;
  -- Shares the row with other voters; resolution takes it exclusively.
  select * into dare from public.dares d where d.id = p_dare_id for share;
  if not found then
    raise exception using message = 'error-dare-not-found', errcode = 'P0001';
  end if;
  select s.creator_id into creator from public.sessions s where s.id = dare.session_id;
  if creator = caller then
    raise exception using message = 'error-own-session', errcode = 'P0001';
  end if;
  perform app_private.assert_not_banned(creator, caller);
  if dare.status <> 'voting' or dare.voting_ends_at <= now() then
    raise exception using message = 'error-voting-closed', errcode = 'P0001';
  end if;
  insert into public.votes (dare_id, voter_id, vote) values (p_dare_id, caller, p_vote)
  on conflict (dare_id, voter_id) do update set vote = excluded.vote, updated_at = now();
  return dare;
end;
$function$
;

grant select on table "public"."blocked_terms" to "authenticated";

grant delete on table "public"."blocked_terms" to "service_role";

grant insert on table "public"."blocked_terms" to "service_role";

grant references on table "public"."blocked_terms" to "service_role";

grant select on table "public"."blocked_terms" to "service_role";

grant trigger on table "public"."blocked_terms" to "service_role";

grant truncate on table "public"."blocked_terms" to "service_role";

grant update on table "public"."blocked_terms" to "service_role";

grant select on table "public"."creator_bans" to "authenticated";

grant delete on table "public"."creator_bans" to "service_role";

grant insert on table "public"."creator_bans" to "service_role";

grant references on table "public"."creator_bans" to "service_role";

grant select on table "public"."creator_bans" to "service_role";

grant trigger on table "public"."creator_bans" to "service_role";

grant truncate on table "public"."creator_bans" to "service_role";

grant update on table "public"."creator_bans" to "service_role";


  create policy "Creators read their own blocked terms"
  on "public"."blocked_terms"
  as permissive
  for select
  to authenticated
using (((creator_id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Creators read their own bans"
  on "public"."creator_bans"
  as permissive
  for select
  to authenticated
using (((creator_id = ( SELECT auth.uid() AS uid)) AND ( SELECT app_private.has_assurance() AS has_assurance)));



  create policy "Held dares are seen by their author, the creator and operators"
  on "public"."dares"
  as permissive
  for select
  to authenticated
using (((status <> ALL (ARRAY['held'::text, 'removed'::text])) OR ((status = 'held'::text) AND (author_id = ( SELECT auth.uid() AS uid))) OR ((status = 'held'::text) AND (EXISTS ( SELECT 1
   FROM sessions s
  WHERE ((s.id = dares.session_id) AND (s.creator_id = ( SELECT auth.uid() AS uid)))))) OR ( SELECT app_private.is_operator() AS is_operator)));



  create policy "Shown dares are public"
  on "public"."dares"
  as permissive
  for select
  to anon
using ((status <> ALL (ARRAY['held'::text, 'removed'::text])));


CREATE TRIGGER moderation_appeals_append_only BEFORE DELETE OR UPDATE ON app_private.moderation_appeals FOR EACH ROW EXECUTE FUNCTION app_private.refuse_change();

CREATE TRIGGER moderation_decisions_append_only BEFORE DELETE OR UPDATE ON app_private.moderation_decisions FOR EACH ROW EXECUTE FUNCTION app_private.refuse_change();

CREATE TRIGGER dares_mark_update AFTER UPDATE ON public.dares REFERENCING OLD TABLE AS before NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION app_private.mark_sessions_of_dares();

-- Privileges (migra writes none): deny by default, then what each API role needs.
revoke all on function app_private.filter_tokens(text) from public, anon, authenticated;
revoke all on function app_private.filter_squeezed(text) from public, anon, authenticated;
revoke all on function app_private.filter_stretched(text) from public, anon, authenticated;
revoke all on function app_private.filter_matches(text, text, text, text, boolean) from public, anon, authenticated;
revoke all on table app_private.filter_terms from public, anon, authenticated, service_role;
revoke all on function app_private.set_filter_terms(jsonb) from public, anon, authenticated, service_role;
revoke all on table public.blocked_terms from anon, authenticated;
grant select on table public.blocked_terms to authenticated;
revoke all on function public.set_blocked_terms(text[]) from public, anon, authenticated;
grant execute on function public.set_blocked_terms(text[]) to authenticated;
revoke all on function app_private.text_verdict(text, uuid) from public, anon, authenticated;
revoke all on table public.creator_bans from anon, authenticated;
grant select on table public.creator_bans to authenticated;
revoke all on function app_private.assert_not_banned(uuid, uuid) from public, anon, authenticated;
revoke all on table app_private.account_restrictions from public, anon, authenticated, service_role;
revoke all on function public.my_restrictions() from public, anon, authenticated;
grant execute on function public.my_restrictions() to authenticated;
revoke all on function app_private.dare_for_moderator(uuid) from public, anon, authenticated, service_role;
revoke all on function public.approve_dare(uuid) from public, anon, authenticated;
grant execute on function public.approve_dare(uuid) to authenticated;
revoke all on function app_private.remove_dare(uuid) from public, anon, authenticated, service_role;
revoke all on function public.hide_dare(uuid) from public, anon, authenticated;
grant execute on function public.hide_dare(uuid) to authenticated;
revoke all on function public.set_hold_new_dares(uuid, boolean) from public, anon, authenticated;
grant execute on function public.set_hold_new_dares(uuid, boolean) to authenticated;
revoke all on function public.ban_viewer(uuid) from public, anon, authenticated;
grant execute on function public.ban_viewer(uuid) to authenticated;
revoke all on function public.unban_viewer(uuid) from public, anon, authenticated;
grant execute on function public.unban_viewer(uuid) to authenticated;
revoke all on function public.my_bans() from public, anon, authenticated;
grant execute on function public.my_bans() to authenticated;
revoke all on table app_private.reports from public, anon, authenticated, service_role;
revoke all on function app_private.take_report(uuid, uuid, text, text, boolean, text, text, text) from public, anon, authenticated, service_role;
revoke all on function public.report_dare(uuid, text, text, boolean, text) from public, anon, authenticated;
grant execute on function public.report_dare(uuid, text, text, boolean, text) to authenticated;
revoke all on function ledger.report_dare_as_visitor(uuid, text, text, boolean, text, text, text) from public, anon, authenticated, service_role;
revoke all on function app_private.refuse_change() from public, anon, authenticated;
revoke all on table app_private.moderation_decisions from public, anon, authenticated, service_role;
revoke all on table app_private.moderation_appeals from public, anon, authenticated, service_role;
revoke all on function app_private.assert_operator() from public, anon, authenticated;
revoke all on function public.moderation_queue() from public, anon, authenticated;
grant execute on function public.moderation_queue() to authenticated;
revoke all on function public.moderation_appeals_open() from public, anon, authenticated;
grant execute on function public.moderation_appeals_open() to authenticated;
revoke all on function public.moderate(text, uuid, text, text) from public, anon, authenticated;
grant execute on function public.moderate(text, uuid, text, text) to authenticated;
revoke all on function public.my_decision(uuid) from public, anon, authenticated;
grant execute on function public.my_decision(uuid) to authenticated;
revoke all on function public.appeal_decision(uuid, text) from public, anon, authenticated;
grant execute on function public.appeal_decision(uuid, text) to authenticated;
revoke all on table app_private.operators from public, anon, authenticated, service_role;
revoke all on function app_private.is_operator() from public, anon, authenticated;
grant execute on function app_private.is_operator() to authenticated;
revoke all on function app_private.live_dares(uuid, uuid[], uuid) from public, anon, authenticated;
revoke all on function public.create_dare(text, uuid, integer, text, text) from public, anon, authenticated;
grant execute on function public.create_dare(text, uuid, integer, text, text) to authenticated;
