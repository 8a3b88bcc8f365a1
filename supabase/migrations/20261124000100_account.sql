-- Accounts, hardened: rules that guard a user's data, enforced where every
-- client meets them (the Data API on Supabase included), not in the app.

-- ---------------------------------------------------------------------------
-- Two-factor assurance
-- ---------------------------------------------------------------------------

-- A user with a verified second factor must have proved it in this session
-- (JWT claim aal = 'aal2') before changing anything of theirs. Supabase Auth
-- issues aal1 tokens after the password alone; without this check such a
-- token could call the database directly and skip the second factor. The
-- local platform's claims carry aal too (app/platform/local).
--
-- has_assurance() is for policies (it runs as the caller, so the API roles
-- may execute it); assert_assurance() is for definer functions and raises
-- error-aal2-required. Both read auth.mfa_factors with definer rights:
-- the API roles have no privilege on the auth schema's tables.
create function app_private.has_assurance()
returns boolean
language sql
stable
security definer
set search_path = ''
as $$
  select coalesce((select auth.jwt()) ->> 'aal', 'aal1') = 'aal2'
    or not exists (
      select 1 from auth.mfa_factors f
      where f.user_id = (select auth.uid())
        and f.status = 'verified'
    );
$$;

create function app_private.assert_assurance()
returns void
language plpgsql
stable
security definer
set search_path = ''
as $$
begin
  if not app_private.has_assurance() then
    raise exception using message = 'error-aal2-required', errcode = 'P0001';
  end if;
end;
$$;

grant usage on schema app_private to authenticated;
revoke all on function app_private.has_assurance() from public, anon, authenticated;
revoke all on function app_private.assert_assurance() from public, anon, authenticated;
grant execute on function app_private.has_assurance() to authenticated;
