-- A read request waits only a moment for a lock (DATABASE_READ_LOCK_TIMEOUT_MS), so that one meeting a locked
-- table gives its connection back at once. Its audit row still joins the chain at commit, where it may queue
-- behind other commits for the chain's head row: that wait keeps the writers' bound, whatever the caller's.
alter function audit_log_chain() set lock_timeout = '2s';
