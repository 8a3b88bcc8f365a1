-- Local platform only: Better Auth's tables (app/modules/account/backends/better-auth), which sign-up,
-- sessions, OAuth and TOTP live in on the local platform. On Supabase,
-- Supabase Auth owns all of this and these tables do not exist.
--
-- They live in their own schema, not in public: public is what Supabase
-- exposes through its Data API, and nothing here is for a browser. The app
-- reaches them as the connection's owner role only (Better Auth through the
-- Kysely dialect in app/modules/account/backends/better-auth/kysely-dialect.server.ts); the API roles
-- get nothing.
--
-- Tables and columns are exactly what Better Auth 1.7 writes for its core
-- (user, session, account, verification) and its twoFactor plugin, plus the
-- additional fields app/modules/account/backends/better-auth/better-auth.server.ts declares (user.locale,
-- session.aal, account.providerLogin), checked against Better Auth's own
-- migration output (getMigrations().compileMigrations() with our options).
-- Better Auth validates this schema on first use and refuses to run if a
-- column it writes is missing. Ids are uuids (generateId is
-- crypto.randomUUID()): the user's id is also their auth.users id.
--
-- Idempotent: runs on every migrate(). A later change adds columns with
-- `alter table ... add column if not exists` below the create statements.

create schema if not exists better_auth;

revoke all on schema better_auth from public, anon, authenticated, service_role;

create table if not exists better_auth."user" (
  "id" uuid not null primary key,
  "name" text not null,
  "email" text not null unique,
  "emailVerified" boolean not null,
  "image" text,
  "createdAt" timestamptz not null default current_timestamp,
  "updatedAt" timestamptz not null default current_timestamp,
  -- twoFactor plugin
  "twoFactorEnabled" boolean,
  -- additional field: the language the account was created in
  "locale" text,
  -- Every Better Auth user is an auth.users row with the same id (created by
  -- the trigger below). Deferred, because that row is inserted by an AFTER
  -- trigger of this very insert; and the other way round, an operator who
  -- deletes the auth.users row deletes the sign-in data with it.
  constraint user_auth_users_fkey foreign key ("id") references auth.users (id)
    on delete cascade deferrable initially deferred
);

create table if not exists better_auth."session" (
  "id" uuid not null primary key,
  "expiresAt" timestamptz not null,
  "token" text not null unique,
  "createdAt" timestamptz not null default current_timestamp,
  "updatedAt" timestamptz not null,
  "ipAddress" text,
  "userAgent" text,
  "userId" uuid not null references better_auth."user" ("id") on delete cascade,
  -- additional field: authenticator assurance level (aal1, or aal2 once a
  -- second factor was proven in this session)
  "aal" text
);

create table if not exists better_auth."account" (
  "id" uuid not null primary key,
  "accountId" text not null,
  "providerId" text not null,
  "userId" uuid not null references better_auth."user" ("id") on delete cascade,
  "accessToken" text,
  "refreshToken" text,
  "idToken" text,
  "accessTokenExpiresAt" timestamptz,
  "refreshTokenExpiresAt" timestamptz,
  "scope" text,
  "password" text,
  "createdAt" timestamptz not null default current_timestamp,
  "updatedAt" timestamptz not null,
  -- additional field: the provider's user name (the Twitch login)
  "providerLogin" text
);

create table if not exists better_auth."verification" (
  "id" uuid not null primary key,
  "identifier" text not null,
  "value" text not null,
  "expiresAt" timestamptz not null,
  "createdAt" timestamptz not null default current_timestamp,
  "updatedAt" timestamptz not null default current_timestamp
);

create table if not exists better_auth."twoFactor" (
  "id" uuid not null primary key,
  "secret" text not null,
  "backupCodes" text not null,
  "userId" uuid not null references better_auth."user" ("id") on delete cascade,
  "verified" boolean,
  "failedVerificationCount" integer,
  "lockedUntil" timestamptz
);

-- Better Auth's own indexes.
create index if not exists "session_userId_idx" on better_auth."session" ("userId");
create index if not exists "account_userId_idx" on better_auth."account" ("userId");
create index if not exists "verification_identifier_idx" on better_auth."verification" ("identifier");
create index if not exists "twoFactor_secret_idx" on better_auth."twoFactor" ("secret");

-- What Better Auth assumes but does not declare: one provider account belongs
-- to one user, and a user has at most one TOTP enrolment. As constraints, a
-- race between two callbacks or two enrolments fails instead of duplicating.
create unique index if not exists "account_provider_account_key" on better_auth."account" ("providerId", "accountId");
create unique index if not exists "twoFactor_userId_key" on better_auth."twoFactor" ("userId");

-- Expired rows are only removed when read; this keeps the sweep cheap.
create index if not exists "verification_expiresAt_idx" on better_auth."verification" ("expiresAt");
create index if not exists "session_expiresAt_idx" on better_auth."session" ("expiresAt");

-- ---------------------------------------------------------------------------
-- Rate limits (app/modules/account/rate-limit.server.ts): fixed windows per key,
-- shared by every app instance. Keys are HMACs of "scope:address" or
-- "scope:ip", never the address itself.
-- ---------------------------------------------------------------------------

create table if not exists better_auth.app_rate_limit (
  key text primary key,
  window_started_at timestamptz not null,
  hits integer not null
);

-- ---------------------------------------------------------------------------
-- auth.users mirror
-- ---------------------------------------------------------------------------

-- Each Better Auth user is an auth.users row with the same id, e-mail,
-- confirmation time and sign-up metadata, in the same transaction: foreign
-- keys to auth.users, auth.uid() in policies and the on_auth_user_created
-- trigger (which creates the wallet) then work exactly as on Supabase.
-- Deleting the Better Auth user deletes the auth.users row, and with it
-- everything that references it on delete cascade.
create or replace function better_auth.sync_auth_user()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if tg_op = 'INSERT' then
    insert into auth.users (
      instance_id, id, aud, role, email, email_confirmed_at,
      raw_app_meta_data, raw_user_meta_data, created_at, updated_at
    ) values (
      '00000000-0000-0000-0000-000000000000', new."id", 'authenticated', 'authenticated', new."email",
      case when new."emailVerified" then now() end,
      '{}'::jsonb,
      jsonb_strip_nulls(jsonb_build_object('locale', new."locale")),
      new."createdAt", new."updatedAt"
    );
    return null;
  elsif tg_op = 'UPDATE' then
    update auth.users set
      email = new."email",
      email_confirmed_at = case when new."emailVerified" then coalesce(email_confirmed_at, now()) end,
      raw_user_meta_data = coalesce(raw_user_meta_data, '{}'::jsonb)
        || jsonb_strip_nulls(jsonb_build_object('locale', new."locale")),
      updated_at = new."updatedAt"
    where id = new."id";
    return null;
  else
    delete from auth.users where id = old."id";
    return null;
  end if;
end;
$$;

revoke all on function better_auth.sync_auth_user() from public, anon, authenticated, service_role;

drop trigger if exists sync_auth_user_insert on better_auth."user";
create trigger sync_auth_user_insert
  after insert on better_auth."user"
  for each row execute function better_auth.sync_auth_user();

drop trigger if exists sync_auth_user_update on better_auth."user";
create trigger sync_auth_user_update
  after update of "email", "emailVerified", "locale" on better_auth."user"
  for each row execute function better_auth.sync_auth_user();

drop trigger if exists sync_auth_user_delete on better_auth."user";
create trigger sync_auth_user_delete
  after delete on better_auth."user"
  for each row execute function better_auth.sync_auth_user();

-- ---------------------------------------------------------------------------
-- auth.mfa_factors mirror
-- ---------------------------------------------------------------------------

-- Better Auth marks a user's authenticator app as on with
-- "twoFactorEnabled" (after the first code is verified). The SQL core asks
-- auth.mfa_factors, as on Supabase, so each such user has one verified TOTP
-- factor there (its id is the user's: one authenticator per account
-- locally), and none once it is switched off.
create or replace function better_auth.sync_mfa_factor()
returns trigger
language plpgsql
set search_path = ''
as $$
begin
  if new."twoFactorEnabled" is true then
    insert into auth.mfa_factors (id, user_id, factor_type, status)
    values (new."id", new."id", 'totp', 'verified')
    on conflict (id) do update set status = 'verified', updated_at = now();
  else
    delete from auth.mfa_factors where user_id = new."id" and factor_type = 'totp';
  end if;
  return null;
end;
$$;

revoke all on function better_auth.sync_mfa_factor() from public, anon, authenticated, service_role;

drop trigger if exists sync_mfa_factor on better_auth."user";
create trigger sync_mfa_factor
  after insert or update of "twoFactorEnabled" on better_auth."user"
  for each row execute function better_auth.sync_mfa_factor();
