-- Local platform only: the part of Supabase Auth's schema that migrations and
-- policies rely on. Column names, types and defaults follow Supabase's
-- auth.users (supabase/auth migrations), so a trigger written for Supabase
-- (`after insert on auth.users`) and a foreign key to auth.users (id) behave
-- the same here. Locally the app's own auth layer writes these rows through
-- the owner connection; on Supabase, GoTrue does.

create schema if not exists auth;

-- As on Supabase: the API roles may call auth.uid() and friends but get no
-- privilege on the tables of this schema.
grant usage on schema auth to anon, authenticated, service_role;

create table if not exists auth.users (
  instance_id uuid,
  id uuid not null,
  aud varchar(255),
  role varchar(255),
  email varchar(255),
  encrypted_password varchar(255),
  email_confirmed_at timestamptz,
  invited_at timestamptz,
  confirmation_token varchar(255),
  confirmation_sent_at timestamptz,
  recovery_token varchar(255),
  recovery_sent_at timestamptz,
  email_change_token_new varchar(255),
  email_change varchar(255),
  email_change_sent_at timestamptz,
  last_sign_in_at timestamptz,
  raw_app_meta_data jsonb,
  raw_user_meta_data jsonb,
  is_super_admin boolean,
  created_at timestamptz,
  updated_at timestamptz,
  phone text default null,
  phone_confirmed_at timestamptz,
  phone_change text default '',
  phone_change_token varchar(255) default '',
  phone_change_sent_at timestamptz,
  confirmed_at timestamptz generated always as (least(email_confirmed_at, phone_confirmed_at)) stored,
  email_change_token_current varchar(255) default '',
  email_change_confirm_status smallint default 0,
  banned_until timestamptz,
  reauthentication_token varchar(255) default '',
  reauthentication_sent_at timestamptz,
  is_sso_user boolean not null default false,
  deleted_at timestamptz,
  is_anonymous boolean not null default false,
  constraint users_pkey primary key (id),
  constraint users_phone_key unique (phone),
  constraint users_email_change_confirm_status_check
    check (email_change_confirm_status >= 0 and email_change_confirm_status <= 2)
);

comment on table auth.users is 'Auth: Stores user login data within a secure schema.';

-- Supabase's uniqueness rule for e-mail addresses (SSO users may share one).
create unique index if not exists users_email_partial_key
  on auth.users (email) where (is_sso_user = false);
create index if not exists users_instance_id_idx on auth.users (instance_id);
create index if not exists users_is_anonymous_idx on auth.users (is_anonymous);

-- As on Supabase: row-level security on, no policy. Only the owner
-- (supabase_auth_admin, and the app's connection through membership) and
-- BYPASSRLS roles (service_role, the migration role) see rows; a grant
-- given to an API role by mistake still shows nothing.
alter table auth.users enable row level security;

-- Supabase Auth's second factors (the columns the SQL core reads). A
-- verified factor makes aal2 the level a session must reach
-- (docs/product.md §2.8); app_private.has_assurance() (supabase/migrations) reads it. Locally the
-- Better Auth mirror in 150_better_auth.sql keeps it; on Supabase, GoTrue.
create table if not exists auth.mfa_factors (
  id uuid not null primary key,
  user_id uuid not null references auth.users (id) on delete cascade,
  friendly_name text,
  factor_type text not null default 'totp'
    constraint mfa_factors_factor_type_check check (factor_type in ('totp', 'webauthn', 'phone')),
  status text not null default 'unverified'
    constraint mfa_factors_status_check check (status in ('unverified', 'verified')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create index if not exists mfa_factors_user_id_idx on auth.mfa_factors (user_id);

alter table auth.mfa_factors enable row level security;

-- The request helpers, exactly as Supabase defines them: PostgREST (and the
-- app's asUser) put the verified JWT's claims in request.jwt.claims; the older
-- per-claim settings (request.jwt.claim.sub, ...) still win when present.
create or replace function auth.uid()
returns uuid
language sql stable
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim.sub', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'sub')
    )::uuid
$$;

create or replace function auth.role()
returns text
language sql stable
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim.role', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'role')
    )::text
$$;

create or replace function auth.email()
returns text
language sql stable
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim.email', true), ''),
      (nullif(current_setting('request.jwt.claims', true), '')::jsonb ->> 'email')
    )::text
$$;

create or replace function auth.jwt()
returns jsonb
language sql stable
as $$
  select
    coalesce(
      nullif(current_setting('request.jwt.claim', true), ''),
      nullif(current_setting('request.jwt.claims', true), '')
    )::jsonb
$$;

comment on function auth.uid() is 'Deprecated. Use auth.jwt() -> ''sub'' instead.';
comment on function auth.role() is 'Deprecated. Use auth.jwt() -> ''role'' instead.';
comment on function auth.email() is 'Deprecated. Use auth.jwt() -> ''email'' instead.';

grant execute on function auth.uid(), auth.role(), auth.email(), auth.jwt()
  to anon, authenticated, service_role;
