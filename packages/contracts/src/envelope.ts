/** Every JSON answer of the API has this shape (SPEC §7). */
export interface ValidationErrorItem {
  field: string;
  message: string;
}

export interface ApiError {
  code: number;
  message: string;
  details?: string;
  validationErrors?: ValidationErrorItem[];
}

export interface Envelope<T> {
  success: boolean;
  result: T | null;
  error: ApiError | null;
}
