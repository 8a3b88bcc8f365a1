-- Local platform only: Supabase Auth's auth.identities (the columns the SQL
-- core reads), kept from Better Auth's provider accounts. On Supabase, GoTrue
-- writes this table itself when someone signs in with (or links) a provider.
--
-- The SQL core links a Twitch creator's channel from their Twitch identity
-- (supabase/migrations/20261125000100_sessions.sql): GoTrue's Twitch provider
-- stores the login as identity_data.name, so the mirror does the same with
-- Better Auth's account."providerLogin".
--
-- Idempotent: runs on every migrate().

create table if not exists auth.identities (
  provider_id text not null,
  user_id uuid not null references auth.users (id) on delete cascade,
  identity_data jsonb not null,
  provider text not null,
  last_sign_in_at timestamptz,
  created_at timestamptz,
  updated_at timestamptz,
  email text generated always as (lower(identity_data ->> 'email')) stored,
  id uuid not null default gen_random_uuid() primary key,
  constraint identities_provider_id_provider_unique unique (provider_id, provider)
);

create index if not exists identities_user_id_idx on auth.identities (user_id);
create index if not exists identities_email_idx on auth.identities (email text_pattern_ops);

-- One identity per Better Auth provider account (the password account,
-- "credential", is not an identity of a provider). The identity's id is the
-- account's id, so updates and deletes find it.
create or replace function better_auth.sync_identity()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'DELETE' then
    delete from auth.identities where id = old."id";
    return null;
  end if;
  if new."providerId" = 'credential' then
    return null;
  end if;
  insert into auth.identities (id, provider_id, user_id, provider, identity_data, last_sign_in_at, created_at, updated_at)
  values (
    new."id", new."accountId", new."userId", new."providerId",
    jsonb_strip_nulls(jsonb_build_object(
      'sub', new."accountId",
      'provider_id', new."accountId",
      'name', new."providerLogin",
      'full_name', new."providerLogin"
    )),
    now(), new."createdAt", new."updatedAt"
  )
  on conflict (id) do update set
    provider_id = excluded.provider_id,
    identity_data = excluded.identity_data,
    updated_at = excluded.updated_at;
  return null;
end;
$$;

revoke all on function better_auth.sync_identity() from public, anon, authenticated, service_role;

drop trigger if exists sync_identity on better_auth."account";
create trigger sync_identity
  after insert or update of "accountId", "providerLogin" or delete on better_auth."account"
  for each row execute function better_auth.sync_identity();

-- Accounts that existed before this mirror.
insert into auth.identities (id, provider_id, user_id, provider, identity_data, created_at, updated_at)
select a."id", a."accountId", a."userId", a."providerId",
  jsonb_strip_nulls(jsonb_build_object(
    'sub', a."accountId", 'provider_id', a."accountId", 'name', a."providerLogin", 'full_name', a."providerLogin"
  )),
  a."createdAt", a."updatedAt"
from better_auth."account" a
where a."providerId" <> 'credential'
on conflict do nothing;
