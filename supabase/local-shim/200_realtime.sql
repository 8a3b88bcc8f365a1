-- Local platform only: the part of Supabase Realtime's schema that the
-- migrations use (supabase/realtime, lib/realtime/tenants/repo/migrations).
--
-- realtime.messages does two jobs, as on Supabase:
--  * realtime.send() writes broadcasts into it (from SQL, in the sender's
--    transaction, so a broadcast exists only if the change that caused it
--    committed);
--  * its SELECT policies decide who may join a private channel: the relay
--    inserts a probe row for the topic, sets role, request.jwt.claims and
--    realtime.topic, and checks whether it can still see that row (see
--    Realtime.Tenants.Authorization).
-- The one local addition is a pg_notify carrying the new row's id.

create schema if not exists realtime;

grant usage on schema realtime to anon, authenticated, service_role;

-- Partitioned by day, as on Supabase, where the Realtime server creates the
-- partitions from yesterday to three days ahead and drops those older than
-- 72 hours. Locally the app does the same (app/modules/realtime/partitions.server.ts:
-- at migration, then the relay every 4 hours). There is no default
-- partition: a message outside those days is refused here as there.
create table if not exists realtime.messages (
  topic text not null,
  extension text not null,
  payload jsonb,
  event text,
  private boolean default false,
  updated_at timestamp without time zone not null default now(),
  inserted_at timestamp without time zone not null default now(),
  id uuid not null default gen_random_uuid()
) partition by range (inserted_at);

do $$
begin
  if not exists (
    select 1 from pg_catalog.pg_constraint
    where conname = 'messages_pkey' and connamespace = 'realtime'::regnamespace
  ) then
    alter table realtime.messages add constraint messages_pkey primary key (id, inserted_at);
  end if;
end
$$;

-- Databases made before the daily partitions had a default one.
drop table if exists realtime.messages_default;

create index if not exists messages_inserted_at_topic_index
  on realtime.messages (inserted_at desc, topic)
  where extension = 'broadcast' and private is true;

-- No policy is created here: with RLS on and no policy nobody but the owner
-- (and service_role, which bypasses RLS) sees a row, which is Supabase's
-- starting point. The migrations add the policies.
alter table realtime.messages enable row level security;

grant select, insert, update on realtime.messages to anon, authenticated, service_role;

create or replace function realtime.topic()
returns text
language sql stable
as $$
  select nullif(current_setting('realtime.topic', true), '')::text;
$$;

-- Supabase's definition (invoker rights, so RLS on realtime.messages applies
-- to the caller; any error is downgraded to a WARNING so that a failed
-- broadcast never rolls back the business transaction that sent it), plus
-- the local notification. The notification carries only the row id: NOTIFY
-- payloads are capped at 8000 bytes and the relay reads the row itself.
create or replace function realtime.send(
  payload jsonb,
  event text,
  topic text,
  private boolean default true
)
returns void
language plpgsql
as $$
declare
  generated_id uuid;
  final_payload jsonb;
begin
  begin
    generated_id := gen_random_uuid();
    if payload ? 'id' then
      final_payload := payload;
    else
      final_payload := jsonb_set(payload, '{id}', to_jsonb(generated_id));
    end if;

    execute format('set local realtime.topic to %L', topic);

    insert into realtime.messages (id, payload, event, topic, private, extension)
    values (generated_id, final_payload, event, topic, private, 'broadcast');

    perform pg_notify('realtime_messages', generated_id::text);
  exception
    when others then
      raise warning 'ErrorSendingBroadcastMessage: %', sqlerrm;
  end;
end;
$$;
