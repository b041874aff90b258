import { useState } from 'react';
import { downloadFile } from '../api.ts';
import { endpoints } from '../paths.ts';
import type { AlertMessage } from './alert.tsx';
import { serverFailure } from './use-alert.ts';

/** FHIR's `_format` for the whole record as a ZIP: one NDJSON file per type and a Bulk Data manifest.json. */
const ZIP = { _format: 'application/zip' };

/**
 * Saves a patient's whole record as one ZIP any computer opens, for another clinic's software or their own
 * (the server audits it). `patientId` is asked for on the click: the patient's own page learns it only then.
 */
export function DownloadDataButton({
  label,
  patientId,
  onFailure,
}: {
  label: string;
  patientId: () => Promise<number>;
  onFailure: (message: AlertMessage) => void;
}) {
  const [downloading, setDownloading] = useState(false);

  async function download() {
    setDownloading(true);
    try {
      await downloadFile(endpoints.fhirEverything(await patientId()), ZIP);
    } catch (error) {
      onFailure(serverFailure(error, 'The data could not be downloaded. Please try again.'));
    } finally {
      setDownloading(false);
    }
  }

  return (
    <button
      type="button"
      className="button button-small no-print"
      disabled={downloading}
      onClick={() => void download()}
    >
      {label}
    </button>
  );
}
