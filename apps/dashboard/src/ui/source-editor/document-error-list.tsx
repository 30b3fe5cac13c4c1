import serverStyles from '@/ui/servers/servers.module.css';
import type { DocumentError } from './preview-readings';

/** The problems with the document as a whole: the JSON text's own, then the API's by path. */
export function DocumentErrorList({
  id,
  jsonError = null,
  errors,
}: {
  id?: string;
  jsonError?: string | null;
  errors: readonly DocumentError[];
}) {
  return (
    <ul id={id} className={serverStyles.pathErrors} data-field-error="document">
      {jsonError !== null ? <li>{jsonError}</li> : null}
      {errors.map((error) => (
        <li key={`${error.path}:${error.message}`}>
          {error.path ? <code>{error.path}</code> : 'Document'}: {error.message}
        </li>
      ))}
    </ul>
  );
}
