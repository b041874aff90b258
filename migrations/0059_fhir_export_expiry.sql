-- A finished system export is kept for EXPORT_RETENTION_HOURS (issue 51; Bulk Data's manifest answers with Expires):
-- then the worker deletes its files and marks the job expired, so that its status URL says it expired rather than
-- that it never was.

alter table fhir_export_jobs drop constraint fhir_export_jobs_status_check;
alter table fhir_export_jobs
  add constraint fhir_export_jobs_status_check check (status in ('pending', 'running', 'done', 'failed', 'expired'));
alter table fhir_export_jobs add column expires_at timestamptz;
-- A job that finished before this migration keeps its files for a day from now.
update fhir_export_jobs set expires_at = now() + interval '1 day' where status in ('done', 'failed');

create index fhir_export_jobs_expiring on fhir_export_jobs (expires_at) where status in ('done', 'failed');
