-- Nurses (issue 49): ward staff who belong to a department and care for the inpatients in its beds.

alter table users drop constraint users_role_check;
alter table users add constraint users_role_check
  check (role in ('patient', 'doctor', 'admin', 'reception', 'lab', 'nurse'));

create table nurses (
  user_id integer primary key references users (id),
  department_id integer not null references departments (id)
);
create index nurses_department_idx on nurses (department_id);
