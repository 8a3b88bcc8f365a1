-- The hot path (issue 22): the helpers every boost, vote and policy calls
-- (has_assurance, is_operator, current_document_version,
-- spending_restricted) in PL/pgSQL, which keeps a plan per connection where a
-- SQL function with its own search_path was planned again on each call; a
-- dare's pot looked up before it is inserted. Same answers, less work
-- (docs/decisions/055-hot-dare.md). Written by npm run db:diff from
-- supabase/schemas.

set check_function_bodies = off;

CREATE OR REPLACE FUNCTION app_private.current_document_version(p_kind text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (
    select d.version
    from public.published_documents d
    where d.kind = p_kind
    order by d.published_at desc, d.version desc
    limit 1
  );
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.has_assurance()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return coalesce((select auth.jwt()) ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid())
        and f.status = 'verified'
    );
end;
$function$
;

CREATE OR REPLACE FUNCTION app_private.is_operator()
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE SECURITY DEFINER
 SET search_path TO ''
AS $function$
begin
  return (select auth.uid()) is not null
    and exists (select 1 from app_private.operators o where o.user_id = (select auth.uid()))
    and app_private.has_assurance();
end;
$function$
;

CREATE OR REPLACE FUNCTION ledger.pot_account(p_dare_id uuid)
 RETURNS bigint
 LANGUAGE plpgsql
 SET search_path TO ''
AS $function$
declare
  account bigint;
begin
  -- Looked up first: a pot is made once and boosted many times.
  select id into account from ledger.accounts where kind = 'pot' and dare_id = p_dare_id;
  if account is null then
    insert into ledger.accounts (kind, dare_id) values ('pot', p_dare_id)
    on conflict (dare_id) where kind = 'pot' do nothing
    returning id into account;
    if account is null then
      select id into account from ledger.accounts where kind = 'pot' and dare_id = p_dare_id;
    end if;
  end if;
  return account;
end;
$function$
;

CREATE OR REPLACE FUNCTION ledger.spending_restricted(p_user uuid)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
 SET search_path TO ''
AS $function$
begin
  return exists (
    select 1 from ledger.disputes d
    where d.user_id = p_user and (d.status = 'open' or (d.status = 'lost' and d.cleared_at is null))
  );
end;
$function$
;
