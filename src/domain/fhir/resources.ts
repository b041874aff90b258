import type { Resource } from '@medplum/fhirtypes';
import { allergyIntoleranceResource, type AllergyIntoleranceRow } from './allergy-intolerance.ts';
import { appointmentResource, type VisitRow } from './appointment.ts';
import { codeSystemResourceDef, type MedoraCodeSystem } from './code-systems.ts';
import { auditEventResource, type AuditEventRow } from './audit-event.ts';
import { conditionResource, type ConditionRow } from './condition.ts';
import { encounterResource, type EncounterRow } from './encounter.ts';
import { healthcareServiceResource, type DepartmentRow } from './healthcare-service.ts';
import { diagnosticReportResource, type LabReportRow } from './diagnostic-report.ts';
import { invoiceResource, type BillRow } from './invoice.ts';
import { locationResource, type LocationRow } from './location.ts';
import { medicationAdministrationResource, type MedicationAdministrationRow } from './medication-administration.ts';
import { medicationRequestResource, type MedicationRequestRow } from './medication-request.ts';
import { medicationResource, type MedicationRow } from './medication.ts';
import { observationResource, type ObservationRow } from './observation.ts';
import { organizationResource } from './organization.ts';
import { patientResource, type PatientRow } from './patient.ts';
import { practitionerRoleResource, type PractitionerRoleRow } from './practitioner-role.ts';
import { practitionerResource, type PractitionerRow } from './practitioner.ts';
import type { FhirType, ResourceDef } from './resource-def.ts';
import { scheduleResource, type ScheduleRow } from './schedule.ts';
import { serviceRequestResource, type LabRequestRow } from './service-request.ts';
import { slotResource, type SlotRow } from './slot.ts';
import { specimenResource, type SpecimenRow } from './specimen.ts';

/** The stored row each resource type is mapped from; the clinic's Organization has none. */
export interface FhirRows {
  Patient: PatientRow;
  Practitioner: PractitionerRow;
  PractitionerRole: PractitionerRoleRow;
  Organization: null;
  Location: LocationRow;
  HealthcareService: DepartmentRow;
  Schedule: ScheduleRow;
  Slot: SlotRow;
  Appointment: VisitRow;
  Encounter: EncounterRow;
  Condition: ConditionRow;
  Invoice: BillRow;
  ServiceRequest: LabRequestRow;
  Specimen: SpecimenRow;
  Observation: ObservationRow;
  DiagnosticReport: LabReportRow;
  Medication: MedicationRow;
  MedicationRequest: MedicationRequestRow;
  MedicationAdministration: MedicationAdministrationRow;
  AllergyIntolerance: AllergyIntoleranceRow;
  AuditEvent: AuditEventRow;
  CodeSystem: MedoraCodeSystem;
}

/** The types read from the database through the FhirStore. */
export type StoredType = Exclude<FhirType, 'Organization' | 'CodeSystem'>;
export const isStored = (type: FhirType): type is StoredType => RESOURCES[type].configured === undefined;

/** Every implemented resource type: its search parameters and mapper. The CapabilityStatement is made from this. */
export const RESOURCES: { [T in FhirType]: ResourceDef<FhirRows[T], Resource> } = {
  Patient: patientResource,
  Practitioner: practitionerResource,
  PractitionerRole: practitionerRoleResource,
  Organization: organizationResource,
  Location: locationResource,
  HealthcareService: healthcareServiceResource,
  Schedule: scheduleResource,
  Slot: slotResource,
  Appointment: appointmentResource,
  Encounter: encounterResource,
  Condition: conditionResource,
  Invoice: invoiceResource,
  ServiceRequest: serviceRequestResource,
  Specimen: specimenResource,
  Observation: observationResource,
  DiagnosticReport: diagnosticReportResource,
  Medication: medicationResource,
  MedicationRequest: medicationRequestResource,
  MedicationAdministration: medicationAdministrationResource,
  AllergyIntolerance: allergyIntoleranceResource,
  AuditEvent: auditEventResource,
  CodeSystem: codeSystemResourceDef,
};
