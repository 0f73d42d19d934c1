-- Performer applications (issue 29 point 1): a verified member applies with their legal name, date
-- of birth, country, a stage name, an ID document and a selfie (kept in the private IDDOCS bucket
-- under random keys) and their consent; an operator approves (the show and the performers row are
-- made at once), rejects or asks for more. A rejected application's documents are deleted once
-- delete_after has passed; approved ones are kept as the 18 U.S.C. 2257 records.
CREATE TABLE applications (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  legal_name TEXT NOT NULL,
  date_of_birth TEXT NOT NULL,          -- ISO date, YYYY-MM-DD
  country TEXT NOT NULL,                -- ISO 3166-1 alpha-2
  stage_name TEXT NOT NULL,
  id_document_key TEXT NOT NULL UNIQUE, -- random R2 keys in IDDOCS, never derived from ids
  selfie_key TEXT NOT NULL UNIQUE,
  consent_at INTEGER NOT NULL,
  state TEXT NOT NULL DEFAULT 'submitted' CHECK (state IN ('submitted', 'more_info', 'approved', 'rejected')),
  reason TEXT,                          -- the operator's message to the applicant
  decided_by INTEGER REFERENCES users (id),
  decided_at INTEGER,
  show_id INTEGER REFERENCES shows (id),
  delete_after INTEGER,                 -- the documents are deleted after this (rejected, more_info)
  documents_deleted_at INTEGER,
  created_at INTEGER NOT NULL
);
-- One open application per member, and an open application holds its stage name (parallel requests too).
CREATE UNIQUE INDEX applications_open_user ON applications (user_id) WHERE state = 'submitted';
CREATE UNIQUE INDEX applications_open_stage_name ON applications (lower(stage_name)) WHERE state = 'submitted';
CREATE INDEX applications_queue ON applications (state, created_at, id);
CREATE INDEX applications_mine ON applications (user_id, id);
CREATE INDEX applications_due ON applications (delete_after) WHERE delete_after IS NOT NULL AND documents_deleted_at IS NULL;

-- The custodian of records (18 U.S.C. 2257, 28 C.F.R. 75.4): one row, named on the 2257 page.
-- Operators set the real name and address before going live.
CREATE TABLE records_custodian (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  address TEXT NOT NULL,
  updated_at INTEGER NOT NULL
);
INSERT INTO records_custodian (id, name, address, updated_at) VALUES (1, 'Custodian of Records, Livecam Example Ltd.', '1 Example Street, 10115 Berlin, Germany', 0);
