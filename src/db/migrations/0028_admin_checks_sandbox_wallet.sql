-- Issue #37.
-- (1) The operator's opt-in, per account, to showing sandbox keys the live wallet (CONTRACT §8): off by
--     default, so a sandbox key reads the simulated wallet (accounts/routes.ts).
ALTER TABLE accounts ADD COLUMN sandbox_live_wallet boolean NOT NULL DEFAULT false;

-- (3) Admin rights take effect when a second admin approves them (admin/actions/users.ts):
--     admin_since is when they took effect (null while the admin waits for approval; null for a
--     non-admin); admin_created_by the console user who made the admin (null: the operator's CLI);
--     admin_approved_by the admin who approved it (null: effective at once, the CLI or the first admin).
--     Admins made before this keep their rights from their creation.
ALTER TABLE console_users ADD COLUMN admin_since timestamptz;
ALTER TABLE console_users ADD COLUMN admin_created_by text REFERENCES console_users (id);
ALTER TABLE console_users ADD COLUMN admin_approved_by text REFERENCES console_users (id);
UPDATE console_users SET admin_since = created_at WHERE is_admin;

-- Maker-checker compares people by user id, not by e-mail: who proposed and who decided, by id.
ALTER TABLE resolutions ADD COLUMN proposed_by_user text REFERENCES console_users (id);
ALTER TABLE resolutions ADD COLUMN decided_by_user text REFERENCES console_users (id);
UPDATE resolutions r SET proposed_by_user = u.id FROM console_users u WHERE u.email = r.proposed_by;
UPDATE resolutions r SET decided_by_user = u.id FROM console_users u WHERE u.email = r.decided_by;
ALTER TABLE go_live_submissions ADD COLUMN submitted_by_user text REFERENCES console_users (id);
ALTER TABLE go_live_submissions ADD COLUMN decided_by_user text REFERENCES console_users (id);
UPDATE go_live_submissions s SET submitted_by_user = u.id FROM console_users u WHERE u.email = lower(s.submitted_by);
UPDATE go_live_submissions s SET decided_by_user = u.id FROM console_users u WHERE u.email = lower(s.decided_by);

-- (4) Batch rows of identity operations: how far the retention sweep (batches/retention.ts) has redacted
--     their stored inputs and answers once final (rows up to it are done), and when their content was
--     erased at the identity retention.
ALTER TABLE batches ADD COLUMN identity_redacted_through integer NOT NULL DEFAULT 0;
ALTER TABLE batches ADD COLUMN identity_erased_at timestamptz;
