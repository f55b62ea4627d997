-- Feedback on searches (POST /v1/feedback; docs/feedback.md). A feedback row belongs to the
-- search it names (the query log's row, by search_id) and to that search's user, and goes
-- with the user or the organization. The namespace is the search's, kept as text like the
-- query log's (a deleted namespace leaves its feedback to the organization).
CREATE TABLE feedback (
  id              text PRIMARY KEY,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  namespace_id    text,
  -- The searched user: whose later searches the feedback ranks. Null when the search had none.
  user_id         text REFERENCES users(id) ON DELETE CASCADE,
  -- Who sent it: the credential's key (null for an end user's own token) and user.
  api_key_id      text,
  sent_by         text NOT NULL,
  search_id       text NOT NULL,
  feedback_type   text NOT NULL,
  feedback_source text NOT NULL,
  feedback_score  double precision,
  -- The ranking signal each cited memory received, in [-1, 1]; 0 when it is stored only.
  signal          real NOT NULL,
  -- feedbackData as validated (the client's field names), and a batch's session_context.
  data            jsonb NOT NULL,
  session_context jsonb,
  created_at      timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX feedback_search_idx ON feedback (organization_id, search_id);
CREATE INDEX feedback_user_idx ON feedback (user_id) WHERE user_id IS NOT NULL;

-- One row per (feedback, cited memory) with a non-zero signal: what search reads, for one user
-- and a page of candidate memories, through the primary key (one index range per user).
-- No foreign key to memories: a memory deleted after the search simply is no candidate any
-- more, and a feedback never fails on a memory deleted meanwhile.
CREATE TABLE feedback_signals (
  organization_id text NOT NULL,
  user_id         text NOT NULL,
  memory_id       text NOT NULL,
  feedback_id     text NOT NULL REFERENCES feedback(id) ON DELETE CASCADE,
  signal          real NOT NULL,
  created_at      timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, user_id, memory_id, feedback_id)
);
CREATE INDEX feedback_signals_feedback_idx ON feedback_signals (feedback_id);
