-- "Contains" search over 100,000 patients must not scan: trigram indexes serve `like '%q%'`.
-- Name and e-mail share one index on one expression, which the planner costs far lower than an OR of two.
-- The extension lives in public so every schema of the database shares it; pg_trgm is a trusted extension.
create extension if not exists pg_trgm with schema public;

create index users_search_trgm_idx on users using gin ((lower(name) || ' ' || lower(email)) public.gin_trgm_ops);
create index patients_phone_trgm_idx on patients using gin (lower(phone) public.gin_trgm_ops);
