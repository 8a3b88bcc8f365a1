-- Realtime: who may receive broadcasts on a session's topic.
--
-- session_updates_{sessionId} carries {updatedKeys, sessionData} for the
-- session page and the overlay. Anyone who may see the session may receive
-- on it, visitors (anon) included: the policy asks public.sessions as the
-- joining role, so the sessions table's own SELECT policy decides, and a
-- topic naming no visible session (or no session at all) is refused.
-- Evaluated by Supabase Realtime, and by the local relay the same way, with
-- the topic being joined in realtime.topic() (Realtime.Tenants.Authorization).
-- Only broadcast; no insert policy: broadcasts come from definer-rights code
-- through realtime.send().
create policy "Visitors receive broadcasts on a session they may see"
  on realtime.messages for select to anon, authenticated
  using (
    realtime.messages.extension = 'broadcast'
    and realtime.messages.topic = (select realtime.topic())
    and (select realtime.topic()) ~ '^session_updates_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
    and exists (
      select 1 from public.sessions s
      where s.id = (
        select case
          when realtime.topic() ~ '^session_updates_[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
          then substr(realtime.topic(), length('session_updates_') + 1)::uuid
        end
      )
    )
  );
