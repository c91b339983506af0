import { ERROR_STATUS, type ErrorCode } from '../../schemas/error.ts';

/** A failure the client is told about, with the stable code of spec section 7. */
export class ApiError extends Error {
  readonly status: number;
  constructor(readonly code: ErrorCode, message: string, readonly details: Record<string, unknown> = {}, readonly headers: Record<string, string> = {}) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export function invalidParameter(parameter: string, value: unknown, message: string): ApiError {
  return new ApiError('invalid_parameter', message, { parameter, value: value ?? null });
}
