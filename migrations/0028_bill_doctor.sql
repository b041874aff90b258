-- A bill names its visit's doctor (issue 36): the admin's bills of one doctor over a month were found from every
-- record the doctor ever wrote — ten years of them — and then filtered by date; now they are one range of an index.
-- The doctor is the visit's, for a supplementary bill its original's; a hospital stay's nights have none, as before.
alter table billings add column doctor_id integer references doctors (id);

-- Filling it in is not a change of the bills: their versions and update times stay as they were.
alter table billings disable trigger billings_touch;
update billings b set doctor_id = m.doctor_id from medical_records m where m.id = b.medical_record_id;
update billings b set doctor_id = o.doctor_id from billings o where o.id = b.supplements_id;
alter table billings enable trigger billings_touch;

create index billings_doctor_idx on billings (doctor_id, billing_date desc, id desc) where doctor_id is not null;
