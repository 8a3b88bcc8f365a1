-- Local platform only: the development mailbox. Without SMTP_URL the embedded
-- default keeps the mails it would have sent here and lists them at
-- /dev/mailbox, so sign-up and password reset can be clicked through on a
-- machine without a mail server. Not part of supabase/migrations: Supabase
-- sends its own auth mails.
create schema if not exists local_dev;
revoke all on schema local_dev from public;

create table if not exists local_dev.mailbox (
  id bigint generated always as identity primary key,
  sent_at timestamptz not null default now(),
  kind text not null,
  recipient text not null,
  subject text not null,
  text_body text not null,
  html_body text not null
);

create index if not exists mailbox_recipient_idx on local_dev.mailbox (lower(recipient), sent_at desc);

-- Written and read only through asServiceRole (app/mail/dev-mailbox.server.ts).
grant usage on schema local_dev to service_role;
grant select, insert on local_dev.mailbox to service_role;
