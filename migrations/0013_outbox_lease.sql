-- Who holds a message's lease (graphile-worker's locked_by): a worker claims a message under its own id, renews
-- the lease while the mail server takes its time, and re-queues or gives up a message only while it still holds
-- it, so a worker whose lease ran out and passed to another can no longer undo the other's work. Null when
-- nobody holds it.
alter table outbox add column locked_by text;
