import { HttpError, NotFoundError, RequestValidationError } from '../errors';
import { SecretExistsError, SecretNotFoundError, SecretsProblemError } from '../services/secrets-service';

/** The service's refusals as OpenHands answers them; `loc` of a problem starts at `prefix`. */
function secretsHttpError(error: unknown, prefix: (string | number)[] = ['body']): unknown {
  if (error instanceof SecretsProblemError) {
    return new RequestValidationError(
      error.problems.map(({ path, message }) => ({
        type: 'value_error',
        loc: [...prefix, ...path],
        msg: `Value error, ${message}`,
        input: null,
        ctx: { error: {} },
      })),
    );
  }
  if (error instanceof SecretExistsError) return new HttpError(400, { message: error.message });
  if (error instanceof SecretNotFoundError) return new NotFoundError({ error: error.message });
  return error;
}

export const rethrowAsHttp =
  (prefix?: (string | number)[]) =>
  (error: unknown): never => {
    throw secretsHttpError(error, prefix);
  };
