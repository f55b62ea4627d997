-- Chat sessions and their messages (POST /v1/messages; docs/messages.md). A session is named
-- by the client (`sessionId`), unique in its organization, and belongs to the user (and
-- namespace) of its first message; its rows go with the user, namespace or organization.
CREATE TABLE chat_sessions (
  id                   text PRIMARY KEY,
  organization_id      text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id         text REFERENCES namespaces(id) ON DELETE CASCADE,
  user_id              text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  session_key          text NOT NULL,
  title                text,
  metadata             jsonb NOT NULL DEFAULT '{}',
  message_count        integer NOT NULL DEFAULT 0,
  -- The hierarchical summaries (ConversationSummary) and how many messages they cover.
  summaries            jsonb,
  summarized_count     integer NOT NULL DEFAULT 0,
  summaries_updated_at timestamptz,
  summary_error        text,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, session_key)
);
CREATE INDEX chat_sessions_user_idx ON chat_sessions (organization_id, user_id);
CREATE INDEX chat_sessions_namespace_idx ON chat_sessions (namespace_id) WHERE namespace_id IS NOT NULL;

CREATE TABLE chat_messages (
  id              text PRIMARY KEY,
  session_id      text NOT NULL REFERENCES chat_sessions(id) ON DELETE CASCADE,
  organization_id text NOT NULL,
  seq             integer NOT NULL,
  role            text NOT NULL,
  -- As sent (a string or a list of {type, text} parts); `text` is what is summarised and remembered.
  content         jsonb NOT NULL,
  text            text NOT NULL,
  metadata        jsonb NOT NULL DEFAULT '{}',
  -- The memory write's own fields (policy, memory_policy, graph_generation, context …).
  memory_options  jsonb NOT NULL DEFAULT '{}',
  -- 'unprocessed' (process_messages false), 'queued', 'claimed' (by the memorize job `job_id`,
  -- so concurrent jobs never embed the same message twice), 'stored' (its memory exists: the
  -- memory's status tells the rest) or 'failed'.
  state           text NOT NULL,
  job_id          text,
  memory_id       text REFERENCES memories(id) ON DELETE SET NULL,
  error           text,
  created_at      timestamptz NOT NULL DEFAULT now(),
  UNIQUE (session_id, seq)
);
CREATE INDEX chat_messages_pending_idx ON chat_messages (session_id, seq) WHERE state IN ('queued', 'claimed', 'unprocessed');
CREATE INDEX chat_messages_memory_idx ON chat_messages (memory_id) WHERE memory_id IS NOT NULL;
