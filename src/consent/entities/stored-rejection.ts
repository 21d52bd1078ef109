/** A rejection as stored in the `error` column (Hydra's `RequestDeniedError` field names). */
export interface StoredRejection {
  readonly error: string;
  readonly error_description: string;
  readonly error_hint: string;
  readonly error_debug: string;
  readonly status_code: number;
}
