-- "Contains" search over 100,000 patients must not scan: trigram indexes serve `lower(col) like '%q%'`.
-- The extension lives in public so every schema of the database shares it; pg_trgm is a trusted extension.
create extension if not exists pg_trgm with schema public;

create index users_name_trgm_idx on users using gin (lower(name) public.gin_trgm_ops);
create index users_email_trgm_idx on users using gin (lower(email) public.gin_trgm_ops);
create index patients_phone_trgm_idx on patients using gin (lower(phone) public.gin_trgm_ops);
