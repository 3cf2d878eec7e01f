"""The database schema as numbered migrations. Append only: a published step never changes.

Each step runs once, in order, inside one transaction that also bumps `PRAGMA user_version`.
Tables are STRICT so a wrong type is an error, not a silent conversion.
"""

from __future__ import annotations

# "RELY": marks the file as Relay's, so a foreign SQLite file is told apart from ours.
APPLICATION_ID = 0x52454C59

V1 = """
CREATE TABLE settings(
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE profiles(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  name TEXT NOT NULL UNIQUE,
  source_path TEXT NOT NULL,
  base_dir TEXT NOT NULL,
  original TEXT NOT NULL,              -- the imported file's text, exactly as read
  edits TEXT NOT NULL DEFAULT '{}',    -- JSON merge patch (RFC 7386) laid over the original
  active INTEGER NOT NULL DEFAULT 0 CHECK (active IN (0, 1)),
  imported_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX profiles_one_active ON profiles(active) WHERE active = 1;

CREATE TABLE runs(
  id TEXT PRIMARY KEY,
  client_tag TEXT NOT NULL DEFAULT '',
  url TEXT NOT NULL,
  title TEXT NOT NULL,
  ats TEXT NOT NULL DEFAULT '',
  snapshot_fp TEXT NOT NULL,
  profile_fp TEXT NOT NULL,
  profile_name TEXT NOT NULL DEFAULT '',
  status TEXT NOT NULL CHECK (status IN
    ('planned', 'applied', 'reviewed', 'submitted', 'abandoned', 'failed')),
  llm_calls INTEGER NOT NULL DEFAULT 0,
  llm_status TEXT NOT NULL DEFAULT '',
  timings TEXT NOT NULL DEFAULT '{}',
  error TEXT NOT NULL DEFAULT '',
  started_at TEXT NOT NULL,
  planned_at TEXT NOT NULL,
  applied_at TEXT,
  reviewed_at TEXT,
  submitted_at TEXT,
  ended_at TEXT,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX runs_started ON runs(started_at, id);

CREATE TABLE decisions(
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  field_id TEXT NOT NULL,
  frame TEXT NOT NULL,
  locator TEXT NOT NULL,
  label TEXT NOT NULL,
  key TEXT NOT NULL,
  action TEXT NOT NULL,
  value TEXT NOT NULL,                 -- JSON {"value","values","checked"}; sealed when encrypted
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  file_name TEXT NOT NULL DEFAULT '',
  source TEXT NOT NULL,
  confidence REAL NOT NULL,
  status TEXT NOT NULL,
  reason TEXT NOT NULL,
  outcome TEXT,                        -- what the page did: applied / not_found / refused / ...
  outcome_detail TEXT NOT NULL DEFAULT '',
  outcome_at TEXT,
  PRIMARY KEY (run_id, seq)
) STRICT;
CREATE INDEX decisions_field ON decisions(run_id, frame, field_id);

CREATE TABLE deliveries(
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL CHECK (seq >= 1),
  kind TEXT NOT NULL,
  payload TEXT NOT NULL,               -- emptied once acknowledged: replay no longer needs it
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  created_at TEXT NOT NULL,
  sent_count INTEGER NOT NULL DEFAULT 0,
  last_sent_at TEXT,
  acked_at TEXT,
  PRIMARY KEY (run_id, seq)
) STRICT;
CREATE INDEX deliveries_pending ON deliveries(run_id, seq) WHERE acked_at IS NULL;

-- Attached documents travel in plans as base64. A copy kept for replay (outbox, stored request
-- answers) refers to the bytes by hash instead, so the same resume is stored once, not per run.
CREATE TABLE blobs(
  sha256 TEXT PRIMARY KEY,
  data TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
CREATE TABLE blob_refs(
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  sha256 TEXT NOT NULL REFERENCES blobs(sha256),
  PRIMARY KEY (run_id, sha256)
) STRICT;

CREATE TABLE requests(
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  run_id TEXT REFERENCES runs(id) ON DELETE CASCADE,
  result TEXT NOT NULL,
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  created_at TEXT NOT NULL
) STRICT;
CREATE INDEX requests_run ON requests(run_id);

CREATE TABLE texts(
  run_id TEXT NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
  kind TEXT NOT NULL,                  -- 'page' (job text) or 'draft' (a drafted answer)
  name TEXT NOT NULL DEFAULT '',       -- e.g. the field a draft answers
  body TEXT NOT NULL,
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  created_at TEXT NOT NULL,
  PRIMARY KEY (run_id, kind, name)
) STRICT;

-- Model answers by prompt fingerprint, so the same question is not paid for twice. Drafted
-- answers: sealed when encryption is on. Not tied to a run; `forget --all` clears it.
CREATE TABLE answer_cache(
  fingerprint TEXT PRIMARY KEY,
  model TEXT NOT NULL,
  body TEXT NOT NULL,                  -- JSON {"text", "tokens_in", "tokens_out"}
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  created_at TEXT NOT NULL
) STRICT;

-- Audit and ledger rows keep the run id as plain text: they describe what happened even for a
-- run that failed before it was stored. Only `forget` removes them.
CREATE TABLE audit(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  started_at TEXT NOT NULL,
  ended_at TEXT NOT NULL,
  actor TEXT NOT NULL,
  action TEXT NOT NULL,
  run_id TEXT,
  payload TEXT NOT NULL DEFAULT '{}',
  decision TEXT NOT NULL DEFAULT '',
  tokens_in INTEGER NOT NULL DEFAULT 0,
  tokens_out INTEGER NOT NULL DEFAULT 0,
  cost_e4 INTEGER NOT NULL DEFAULT 0,  -- ten-thousandths of a cent
  status TEXT NOT NULL,
  error TEXT NOT NULL DEFAULT ''
) STRICT;
CREATE INDEX audit_run ON audit(run_id);

CREATE TABLE ledger(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  call_id TEXT NOT NULL UNIQUE,
  run_id TEXT,
  at TEXT NOT NULL,
  model TEXT NOT NULL,
  tier TEXT NOT NULL,
  tokens_in INTEGER NOT NULL CHECK (tokens_in >= 0),
  tokens_out INTEGER NOT NULL CHECK (tokens_out >= 0),
  cost_e4 INTEGER NOT NULL CHECK (cost_e4 >= 0)
) STRICT;
CREATE INDEX ledger_run ON ledger(run_id);
CREATE INDEX ledger_at ON ledger(at);

-- Append-only audit log: no update ever; delete only while `forget` holds the guard row.
CREATE TABLE forget_guard(held INTEGER NOT NULL) STRICT;
CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
WHEN NOT EXISTS (SELECT 1 FROM forget_guard)
BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
"""

# The person's own applications (recorded when Relay saw them press Submit) and the answers they
# gave, kept to answer the same question next time.
V2 = """
CREATE TABLE applications(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  run_id TEXT NOT NULL DEFAULT '',     -- plain text: the run may be forgotten, the application not
  url TEXT NOT NULL,
  page_title TEXT NOT NULL DEFAULT '',
  company TEXT NOT NULL DEFAULT '',
  job_title TEXT NOT NULL DEFAULT '',
  ats TEXT NOT NULL DEFAULT '',
  how TEXT NOT NULL CHECK (how IN ('submit_event', 'submit_click', 'confirmation')),
  files TEXT NOT NULL DEFAULT '[]',    -- JSON list of attached file names
  status TEXT NOT NULL DEFAULT 'submitted' CHECK (status IN
    ('submitted', 'interviewing', 'offer', 'rejected', 'withdrawn')),
  notes TEXT NOT NULL DEFAULT '',
  submitted_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX applications_submitted ON applications(submitted_at, id);

CREATE TABLE application_fields(
  application_id INTEGER NOT NULL REFERENCES applications(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  field_id TEXT NOT NULL,
  label TEXT NOT NULL,
  section TEXT NOT NULL DEFAULT '',
  options TEXT NOT NULL DEFAULT '[]',  -- JSON list
  widget TEXT NOT NULL,
  value TEXT NOT NULL,
  set_by TEXT NOT NULL CHECK (set_by IN
    ('rules', 'saved_answer', 'model', 'person', 'page', 'default')),
  relay_value TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (application_id, seq)
) STRICT;

CREATE TABLE saved_answers(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  qkey TEXT NOT NULL UNIQUE,           -- folded label | section | options: one answer per question
  question TEXT NOT NULL,
  section TEXT NOT NULL DEFAULT '',
  options TEXT NOT NULL DEFAULT '[]',  -- JSON list
  widget TEXT NOT NULL DEFAULT '',
  lang TEXT NOT NULL DEFAULT '',
  value TEXT NOT NULL,
  answer_values TEXT NOT NULL DEFAULT '[]',  -- JSON list, for multiple choice
  origin TEXT NOT NULL CHECK (origin IN ('saved', 'submitted', 'edited')),
  application_id INTEGER,
  self_id INTEGER NOT NULL DEFAULT 0 CHECK (self_id IN (0, 1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  used_at TEXT,
  used_count INTEGER NOT NULL DEFAULT 0
) STRICT;

-- The question's embedding, for sqlite-vec's search. Derived data: not exported, rebuilt when
-- missing or made by another model.
CREATE TABLE saved_answer_vectors(
  answer_id INTEGER PRIMARY KEY REFERENCES saved_answers(id) ON DELETE CASCADE,
  model TEXT NOT NULL,
  embedding BLOB NOT NULL
) STRICT;
"""

# Saved answers and what the person submitted are sealed when encryption is on, like the runs'
# model answers: a saved answer's value and values, an application field's value and Relay's.
V3 = """
ALTER TABLE saved_answers ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1));
ALTER TABLE application_fields ADD COLUMN sealed INTEGER NOT NULL DEFAULT 0
  CHECK (sealed IN (0, 1));
"""

# Requests an assistant made that wait for the person's yes or no (the APPROVE tier,
# bridge/assistant/tiers.py): `relay approvals` lists and decides them.
V4 = """
CREATE TABLE approvals(
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  kind TEXT NOT NULL,                  -- the request it sends once approved ('answer.save')
  tool TEXT NOT NULL,                  -- who asked ('mcp.save_answer')
  payload TEXT NOT NULL,               -- that request's payload (JSON); sealed when encrypted
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'denied')),
  result TEXT NOT NULL DEFAULT '{}',   -- what the request answered once approved
  created_at TEXT NOT NULL,
  decided_at TEXT
) STRICT;
CREATE INDEX approvals_pending ON approvals(id) WHERE status = 'pending';
"""

# The resume or cover letter the person chose for one job page (the side panel's "Fill with"),
# per profile: deleted with the profile, exported with the store. The file named is sealed when
# encryption is on; the job page stays plain (it is the lookup key, as runs keep their URL).
V5 = """
CREATE TABLE document_choices(
  profile_id INTEGER NOT NULL REFERENCES profiles(id) ON DELETE CASCADE,
  job TEXT NOT NULL,                   -- the job page: scheme, host and path, no query
  kind TEXT NOT NULL CHECK (kind IN ('resume', 'coverLetter')),
  ref TEXT NOT NULL,                   -- the file as documents.list names it; sealed
  sealed INTEGER NOT NULL DEFAULT 0 CHECK (sealed IN (0, 1)),
  updated_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, job, kind)
) STRICT;
"""

# (version, SQL). Version N's SQL takes a version N-1 database to version N.
MIGRATIONS: tuple[tuple[int, str], ...] = ((1, V1), (2, V2), (3, V3), (4, V4), (5, V5))
LATEST = MIGRATIONS[-1][0]

# Tables in dependency order (parents first): export writes them, import reads them in this order.
# A later migration that adds a table adds it here too.
TABLES: tuple[str, ...] = (
    "settings",
    "profiles",
    "runs",
    "blobs",
    "blob_refs",
    "decisions",
    "deliveries",
    "requests",
    "texts",
    "answer_cache",
    "audit",
    "ledger",
    "applications",
    "application_fields",
    "saved_answers",
    "approvals",
    "document_choices",
)
