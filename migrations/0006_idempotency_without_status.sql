-- A remembered payment is its result; the HTTP status that carried it is the API's business (always 200).
-- The column stays, defaulted, until no running release reads it (expand, then contract a release later).
alter table idempotency_keys alter column status set default 200;
