import { echoable } from '../../schemas/inputs.ts';
import { OperatorError } from '../core/cli.ts';
/** A mistake in an operator command (CLI): the one class of api/core/cli.ts. */
export { OperatorError };
import { MARKET_ERROR_STATUS, type MarketErrorCode } from '../../schemas/marketplace.ts';

/** A failure a marketplace client or operator is told about, with a stable code and status. */
export class MarketError extends Error {
  readonly status: number;
  constructor(
    readonly code: MarketErrorCode,
    message: string,
    readonly details: Record<string, unknown> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'MarketError';
    this.status = MARKET_ERROR_STATUS[code];
  }
}

/** A refused parameter; the value sent is repeated unless the parameter is a secret (access_token...). */
export const invalid = (parameter: string, value: unknown, message: string) =>
  new MarketError('invalid_parameter', message, { parameter, value: echoable(parameter, value ?? null) });

/** Turns unique and foreign-key violations of operator input into messages a person can act on. */
export function explainConstraint(err: unknown, what: string): never {
  const code = (err as { code?: string }).code;
  const constraint = (err as { constraint?: string }).constraint ?? '';
  if (code === '23505') throw new OperatorError(`${what} already exists (${constraint.replace(/_key$/, '')})`, 'conflict');
  if (code === '23503') throw new OperatorError(`${what}: the referenced record does not exist`, 'not_found');
  throw err;
}

