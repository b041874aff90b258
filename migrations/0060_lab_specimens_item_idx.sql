-- A lab order item's specimens, rejected ones included: the FHIR ServiceRequest's lastUpdated takes the latest of
-- them for every item it answers ($everything, a patient's export, a search), and only the live specimen had an
-- index (lab_specimens_live_key), so each item read every specimen of the hospital.
create index lab_specimens_order_item_idx on lab_specimens (order_item_id);
