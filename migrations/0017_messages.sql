-- Conversations and messages (issue 14): a member's threads with shows (one per show and
-- pseudonym) and with support, the block state per member and show, and the operator role.

-- Operators answer the support threads (the operator inbox). A member account with this row.
CREATE TABLE operators (
  user_id INTEGER PRIMARY KEY REFERENCES users (id),
  created_at INTEGER NOT NULL
);

-- show_id 0 is the member's support thread (no show). pseudo_id 0: the member's own generated
-- pseudonym for this show; otherwise one of the member's nicknames. member_pseudo is the only
-- name of the member the performer (or an operator) ever sees. Times in unix seconds.
CREATE TABLE conversations (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users (id),
  show_id INTEGER NOT NULL,
  pseudo_id INTEGER NOT NULL DEFAULT 0,
  member_pseudo TEXT NOT NULL,
  -- the member deleted the conversation from their list (a new message brings it back)
  member_hidden INTEGER NOT NULL DEFAULT 0,
  last_message_at INTEGER NOT NULL DEFAULT 0,
  tips INTEGER NOT NULL DEFAULT 0 CHECK (tips >= 0),
  created_at INTEGER NOT NULL
);
CREATE UNIQUE INDEX conversations_key ON conversations (user_id, show_id, pseudo_id);
CREATE INDEX conversations_member_list ON conversations (user_id, member_hidden, last_message_at);
CREATE INDEX conversations_show_list ON conversations (show_id, last_message_at);

-- author: member, show (the performer) or support (an operator). read_member: the member read a
-- message of the show/support; read_side: the performer/operator read a message of the member.
-- deleted_member: the member removed it from their view. tip_ref: the ledger reference of its tip.
CREATE TABLE messages (
  id INTEGER PRIMARY KEY,
  conversation_id INTEGER NOT NULL REFERENCES conversations (id),
  user_id INTEGER NOT NULL,
  show_id INTEGER NOT NULL,
  author TEXT NOT NULL CHECK (author IN ('member', 'show', 'support')),
  author_user_id INTEGER,
  body TEXT NOT NULL,
  tip INTEGER NOT NULL DEFAULT 0 CHECK (tip >= 0),
  tip_ref TEXT UNIQUE,
  created_at INTEGER NOT NULL,
  read_member INTEGER NOT NULL DEFAULT 0,
  read_side INTEGER NOT NULL DEFAULT 0,
  deleted_member INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX messages_conversation ON messages (conversation_id, id);
-- covering for the member's counts (show_id: leaving out blocked shows without a table lookup)
CREATE INDEX messages_member_unread ON messages (user_id, conversation_id, show_id)
  WHERE read_member = 0 AND deleted_member = 0 AND author <> 'member';
CREATE INDEX messages_side_unread ON messages (show_id, conversation_id)
  WHERE read_side = 0 AND author = 'member';

-- Block state between a member and a show (all pseudonyms): by the member (memberstatus) or by
-- the show's performer (showstatus). Either stops new messages in both directions.
CREATE TABLE message_blocks (
  user_id INTEGER NOT NULL REFERENCES users (id),
  show_id INTEGER NOT NULL REFERENCES shows (id),
  by_member INTEGER NOT NULL DEFAULT 0,
  by_show INTEGER NOT NULL DEFAULT 0,
  updated_at INTEGER NOT NULL,
  PRIMARY KEY (user_id, show_id)
) WITHOUT ROWID;
