-- Critical lab results by e-mail (issue 48): the ordering doctor is written at once, the department's doctors when
-- the alert is still unacknowledged after 30 minutes. The escalation's messages wait in the outbox with their alert,
-- and the worker skips them if it was acknowledged meanwhile.
alter table outbox add column lab_alert_id integer references lab_critical_alerts (id);
create index outbox_lab_alert_idx on outbox (lab_alert_id) where lab_alert_id is not null;
