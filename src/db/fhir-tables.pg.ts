import { auditEventTable } from './fhir-audit.pg.ts';
import { patientTable, practitionerRoleTable, practitionerTable, scheduleTable } from './fhir-people.pg.ts';
import { healthcareServiceTable, locationTable, slotTable } from './fhir-places.pg.ts';
import type { FhirTables } from './fhir-search.pg.ts';
import { encounterTable } from './fhir-encounters.pg.ts';
import { diagnosticReportTable, observationTable, serviceRequestTable, specimenTable } from './fhir-lab.pg.ts';
import {
  allergyIntoleranceTable,
  medicationAdministrationTable,
  medicationRequestTable,
  medicationTable,
} from './fhir-medicines.pg.ts';
import { appointmentTable, conditionTable, invoiceTable } from './fhir-visits.pg.ts';

/** The select behind each stored FHIR resource type. */
export const FHIR_TABLES: FhirTables = {
  Patient: patientTable,
  Practitioner: practitionerTable,
  PractitionerRole: practitionerRoleTable,
  Location: locationTable,
  HealthcareService: healthcareServiceTable,
  Schedule: scheduleTable,
  Slot: slotTable,
  Appointment: appointmentTable,
  Encounter: encounterTable,
  Condition: conditionTable,
  Invoice: invoiceTable,
  ServiceRequest: serviceRequestTable,
  Specimen: specimenTable,
  Observation: observationTable,
  DiagnosticReport: diagnosticReportTable,
  Medication: medicationTable,
  MedicationRequest: medicationRequestTable,
  MedicationAdministration: medicationAdministrationTable,
  AllergyIntolerance: allergyIntoleranceTable,
  AuditEvent: auditEventTable,
};
